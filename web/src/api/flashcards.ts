// Flashcards: the decks a person may study, the study queue, what each
// rating would do, the grades and their undo, and a deck's exam forecast.
import { useQuery } from "@tanstack/react-query";
import { api, must, useWrite } from "./client";
import { keys } from "./keys";
import type { components } from "./schema";

export type StudyItem = components["schemas"]["FlashcardStudyItem"];
export type Outcome = components["schemas"]["FlashcardOutcome"];

export const useDecks = () =>
  useQuery({ queryKey: keys.decks.list(), queryFn: async () => must(await api.GET("/api/v1/flashcards", { params: { query: { limit: 100 } } })) ?? [] });

/** useQueue is what is due now (new cards included) in one deck, or in
 * every deck with 0. */
export const useQueue = (deck: number) =>
  useQuery({
    queryKey: keys.decks.queue(deck),
    queryFn: async () => must(await api.GET("/api/v1/flashcards/study/queue", { params: { query: { deck_id: deck || undefined, limit: 50 } } })),
    select: (q) => q.items ?? [],
  });

/** useOutcomes is what each rating would do to a card now; seen tells the
 * reads of one card apart (after an undo the card is the same, its state not). */
export const useOutcomes = (card: number | undefined, seen: number) =>
  useQuery({
    queryKey: keys.decks.outcomes(card ?? 0, seen),
    enabled: card !== undefined,
    staleTime: Infinity,
    gcTime: 60_000,
    queryFn: async () => must(await api.GET("/api/v1/flashcards/cards/{card_id}/outcomes", { params: { path: { card_id: card! } } })) ?? [],
  });

// A grade moves the card in the queues and the deck's forecast.
const changes = [keys.decks.root];

export const useGrade = () =>
  useWrite(
    async ({ card, body }: { card: number; body: components["schemas"]["Post-flashcards-cards-by-card-id-reviewRequest"] }) =>
      must(await api.POST("/api/v1/flashcards/cards/{card_id}/review", { params: { path: { card_id: card } }, body })),
    { changes },
  );

export const useUndoGrade = () =>
  useWrite(async (card: number) => must(await api.DELETE("/api/v1/flashcards/cards/{card_id}/review", { params: { path: { card_id: card } } })), { changes });

export const useForecast = (deck: number) =>
  useQuery({
    queryKey: keys.decks.forecast(deck),
    queryFn: async () => must(await api.GET("/api/v1/flashcards/{deck_id}/forecast", { params: { path: { deck_id: deck } } })),
  });

export const useSetExam = (deck: number) =>
  useWrite(async (exam_date: string) => must(await api.PUT("/api/v1/flashcards/{deck_id}/exam", { params: { path: { deck_id: deck } }, body: { exam_date } })), {
    changes,
  });

/** useCardCharts is the statistics screen's series (due per day, true
 * retention by interval, the stability spread); a grade changes them. */
export const useCardCharts = () =>
  useQuery({ queryKey: keys.decks.charts(), queryFn: async () => must(await api.GET("/api/v1/flashcards/stats/charts")) });
