// The route table: every screen's path, who reaches it, where it sits in
// the navigation. The shell draws the navigation from it and renders the
// matching route; a role that does not reach a route gets "Not found"
// (the server enforces the real rule). Screens load on first use.
import { lazy, type ComponentType, type ReactNode } from "react";
import type { Role } from "./api/account";

/** screen loads a screen's module on first use (its own chunk). */
const screen = <P extends object>(load: () => Promise<ComponentType<P>>) => lazy(async () => ({ default: await load() }));

const learn = {
  Dashboard: screen(() => import("./screens/learn/Dashboard").then((m) => m.Dashboard)),
  Quizzes: screen(() => import("./screens/learn/Quizzes").then((m) => m.Quizzes)),
  Sit: screen(() => import("./screens/learn/Sit").then((m) => m.Sit)),
  Review: screen(() => import("./screens/learn/Review").then((m) => m.Review)),
  Plans: screen(() => import("./screens/learn/Plans").then((m) => m.Plans)),
  Plan: screen(() => import("./screens/learn/Plans").then((m) => m.Plan)),
  Exams: screen(() => import("./screens/learn/Exams").then((m) => m.Exams)),
  ExamResult: screen(() => import("./screens/learn/Exams").then((m) => m.ExamResult)),
  Decks: screen(() => import("./screens/learn/Flashcards").then((m) => m.Decks)),
  Study: screen(() => import("./screens/learn/Flashcards").then((m) => m.Study)),
  CardStats: screen(() => import("./screens/learn/CardStats").then((m) => m.CardStats)),
  Browse: screen(() => import("./screens/learn/Browse").then((m) => m.Browse)),
  CustomBlock: screen(() => import("./screens/learn/CustomBlock").then((m) => m.CustomBlock)),
  Collections: screen(() => import("./screens/learn/Collections").then((m) => m.Collections)),
  Library: screen(() => import("./screens/learn/Library").then((m) => m.Library)),
  Article: screen(() => import("./screens/learn/Library").then((m) => m.Article)),
  Labs: screen(() => import("./screens/learn/Labs").then((m) => m.Labs)),
};
const consoleScreens = {
  Bank: screen(() => import("./screens/console/Bank").then((m) => m.Bank)),
  NewQuestion: screen(() => import("./screens/console/QuestionEditor").then((m) => m.NewQuestion)),
  QuestionEditor: screen(() => import("./screens/console/QuestionEditor").then((m) => m.QuestionEditor)),
  Drafts: screen(() => import("./screens/console/Drafts").then((m) => m.Drafts)),
  Document: screen(() => import("./screens/console/Document").then((m) => m.Document)),
  Batch: screen(() => import("./screens/console/Batch").then((m) => m.Batch)),
  ArticleList: screen(() => import("./screens/console/Articles").then((m) => m.ArticleList)),
  ArticleEditor: screen(() => import("./screens/console/Articles").then((m) => m.ArticleEditor)),
  Categories: screen(() => import("./screens/console/Categories").then((m) => m.Categories)),
  Feedback: screen(() => import("./screens/console/Feedback").then((m) => m.Feedback)),
  Trash: screen(() => import("./screens/console/Trash").then((m) => m.Trash)),
  Grants: screen(() => import("./screens/console/Grants").then((m) => m.Grants)),
  Insights: screen(() => import("./screens/console/Insights").then((m) => m.Insights)),
};
const admin = {
  Models: screen(() => import("./screens/admin/Models").then((m) => m.Models)),
  Usage: screen(() => import("./screens/admin/Usage").then((m) => m.Usage)),
  Settings: screen(() => import("./screens/admin/Settings").then((m) => m.Settings)),
  People: screen(() => import("./screens/admin/People").then((m) => m.People)),
  Messages: screen(() => import("./screens/admin/Messages").then((m) => m.Messages)),
  Outbox: screen(() => import("./screens/admin/Outbox").then((m) => m.Outbox)),
};
const account = {
  Shares: screen(() => import("./screens/account/Shares").then((m) => m.Shares)),
  Devices: screen(() => import("./screens/account/Devices").then((m) => m.Devices)),
  Contact: screen(() => import("./screens/account/Contact").then((m) => m.Contact)),
};

export type Group = "Learn" | "Content" | "Admin" | "You";
export type Params = Record<string, string> & { path: string; role: Role };

export type Route = {
  path: string;
  role: Role;
  render: (p: Params) => ReactNode;
  /** The navigation entry: its group and label (a route without one belongs to nav's section). */
  nav?: { group: Group; label: string };
  /** The navigation entry that stays current on this route. */
  section?: string;
  /** The wide layout (the sitting screen). */
  wide?: boolean;
};

const n = Number;

export const routes: Route[] = [
  { path: "/", role: "user", nav: { group: "Learn", label: "Dashboard" }, render: () => <learn.Dashboard /> },
  { path: "/quizzes", role: "user", nav: { group: "Learn", label: "Quizzes" }, render: () => <learn.Quizzes /> },
  { path: "/quizzes/:id/sit", role: "user", section: "/quizzes", wide: true, render: (p) => <learn.Sit key={p.path} quizId={n(p.id)} /> },
  { path: "/attempts/:id", role: "user", section: "/", render: (p) => <learn.Review key={p.id} attemptId={n(p.id)} /> },
  { path: "/blocks/new", role: "user", nav: { group: "Learn", label: "Create a block" }, render: () => <learn.CustomBlock /> },
  { path: "/plans", role: "user", nav: { group: "Learn", label: "Study plans" }, render: (p) => <learn.Plans moderator={p.role !== "user"} /> },
  { path: "/plans/:id", role: "user", section: "/plans", render: (p) => <learn.Plan key={p.id} id={n(p.id)} moderator={p.role !== "user"} /> },
  { path: "/exams", role: "user", nav: { group: "Learn", label: "Exams" }, render: (p) => <learn.Exams moderator={p.role !== "user"} /> },
  { path: "/exams/:id/result", role: "user", section: "/exams", render: (p) => <learn.ExamResult key={p.id} id={n(p.id)} /> },
  { path: "/flashcards", role: "user", nav: { group: "Learn", label: "Flashcards" }, render: (p) => <learn.Decks moderator={p.role !== "user"} /> },
  { path: "/flashcards/study", role: "user", section: "/flashcards", render: (p) => <learn.Study key={p.search} /> },
  { path: "/flashcards/stats", role: "user", section: "/flashcards", render: () => <learn.CardStats /> },
  { path: "/browse", role: "user", nav: { group: "Learn", label: "Browse questions" }, render: (p) => <learn.Browse moderator={p.role !== "user"} /> },
  { path: "/collections", role: "user", nav: { group: "Learn", label: "Collections" }, render: () => <learn.Collections /> },
  { path: "/library", role: "user", nav: { group: "Learn", label: "Library" }, render: () => <learn.Library /> },
  { path: "/articles/:slug", role: "user", section: "/library", render: (p) => <learn.Article key={p.slug} slug={p.slug} /> },
  { path: "/labs", role: "user", nav: { group: "Learn", label: "Lab values" }, render: (p) => <learn.Labs moderator={p.role !== "user"} /> },

  { path: "/bank", role: "moderator", nav: { group: "Content", label: "Question bank" }, render: () => <consoleScreens.Bank /> },
  { path: "/questions/new", role: "moderator", section: "/bank", render: () => <consoleScreens.NewQuestion /> },
  { path: "/questions/:id/edit", role: "moderator", section: "/bank", render: (p) => <consoleScreens.QuestionEditor key={p.id} id={n(p.id)} /> },
  { path: "/drafts", role: "moderator", nav: { group: "Content", label: "PDFs and drafts" }, render: () => <consoleScreens.Drafts /> },
  { path: "/documents/:id", role: "moderator", section: "/drafts", render: (p) => <consoleScreens.Document key={p.id} id={n(p.id)} /> },
  { path: "/drafts/:id", role: "moderator", section: "/drafts", render: (p) => <consoleScreens.Batch key={p.id} id={n(p.id)} /> },
  { path: "/write", role: "moderator", nav: { group: "Content", label: "Article editor" }, render: () => <consoleScreens.ArticleList /> },
  { path: "/write/:id", role: "moderator", section: "/write", render: (p) => <consoleScreens.ArticleEditor key={p.id} id={n(p.id)} /> },
  { path: "/categories", role: "moderator", nav: { group: "Content", label: "Categories" }, render: () => <consoleScreens.Categories /> },
  { path: "/feedback", role: "moderator", nav: { group: "Content", label: "Feedback" }, render: () => <consoleScreens.Feedback /> },
  { path: "/trash", role: "moderator", nav: { group: "Content", label: "Trash" }, render: () => <consoleScreens.Trash /> },
  { path: "/insights", role: "moderator", nav: { group: "Content", label: "Bank statistics" }, render: () => <consoleScreens.Insights /> },
  { path: "/grants", role: "moderator", nav: { group: "Content", label: "Grants" }, render: (p) => <consoleScreens.Grants admin={p.role === "admin"} /> },

  { path: "/models", role: "admin", nav: { group: "Admin", label: "AI models" }, render: () => <admin.Models /> },
  { path: "/usage", role: "admin", nav: { group: "Admin", label: "AI usage" }, render: () => <admin.Usage /> },
  { path: "/settings", role: "admin", nav: { group: "Admin", label: "Settings" }, render: () => <admin.Settings /> },
  { path: "/people", role: "admin", nav: { group: "Admin", label: "People" }, render: () => <admin.People /> },
  { path: "/messages", role: "admin", nav: { group: "Admin", label: "Messages" }, render: () => <admin.Messages /> },
  { path: "/outbox", role: "admin", nav: { group: "Admin", label: "Event outbox" }, render: () => <admin.Outbox /> },

  { path: "/shares", role: "user", nav: { group: "You", label: "Shared links" }, render: () => <account.Shares /> },
  { path: "/devices", role: "user", nav: { group: "You", label: "Devices" }, render: () => <account.Devices /> },
  { path: "/contact", role: "user", nav: { group: "You", label: "Contact" }, render: () => <account.Contact /> },
];

export const groups: Group[] = ["Learn", "Content", "Admin", "You"];

const rank: Record<Role, number> = { user: 0, moderator: 1, admin: 2 };

/** reaches tells whether a role reaches a route's level. */
export const reaches = (role: Role, r: Route) => rank[role] >= rank[r.role];
