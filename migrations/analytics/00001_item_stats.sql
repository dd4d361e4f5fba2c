-- +goose Up
-- Item analysis, kept up to date on every completed timed attempt (an
-- attempts event handler). The sums are what point-biserial correlation
-- needs, so the statistics are exact at any moment without rereading
-- attempts: x is the rest-of-test score (the share of the attempt's other
-- questions answered right), y whether this item was right.
CREATE TABLE analytics.item_stats (
  question_id      bigint NOT NULL,
  version          int NOT NULL,
  options          jsonb NOT NULL DEFAULT '[]',
  responses        bigint NOT NULL DEFAULT 0,
  correct          bigint NOT NULL DEFAULT 0,
  blank            bigint NOT NULL DEFAULT 0,
  sum_rest         double precision NOT NULL DEFAULT 0,
  sum_rest_sq      double precision NOT NULL DEFAULT 0,
  sum_rest_correct double precision NOT NULL DEFAULT 0,
  updated_at       timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (question_id, version)
);

-- How often each option of an item version was chosen, with the rest-of-
-- test sum of those who chose it (the option's own discrimination).
CREATE TABLE analytics.option_stats (
  question_id bigint NOT NULL,
  version     int NOT NULL,
  option      text NOT NULL,
  chosen      bigint NOT NULL DEFAULT 0,
  sum_rest    double precision NOT NULL DEFAULT 0,
  PRIMARY KEY (question_id, version, option)
);

-- The distribution of scores per quiz (whole percent), for a learner's
-- percentile among everyone who sat it.
CREATE TABLE analytics.quiz_scores (
  quiz_id bigint NOT NULL,
  percent int NOT NULL CHECK (percent BETWEEN 0 AND 100),
  sittings bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (quiz_id, percent)
);

-- The attempts already counted: a redelivered event, or a replay, counts
-- nothing twice.
CREATE TABLE analytics.counted_attempts (
  attempt_id bigint PRIMARY KEY,
  counted_at timestamptz NOT NULL DEFAULT now()
);

-- +goose Down
DROP TABLE analytics.counted_attempts;
DROP TABLE analytics.quiz_scores;
DROP TABLE analytics.option_stats;
DROP TABLE analytics.item_stats;
