-- One table for the background work of every area (server/services/jobs/), the shape of Oban's `oban_jobs`: a row
-- per job with its state, attempts, the time it may run (a backoff, a periodic window) and the errors of its failed
-- attempts. Runners claim due rows with FOR UPDATE SKIP LOCKED, so several API processes never run one job twice,
-- and take a lease that another runner reclaims when it expires (the runner's process died).
CREATE TABLE "jobs" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY,
	"queue" text DEFAULT 'default' NOT NULL,
	"kind" text NOT NULL,
	"args" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"state" text DEFAULT 'available' NOT NULL,
	"attempt" integer DEFAULT 0 NOT NULL,
	"max_attempts" integer DEFAULT 20 NOT NULL,
	"scheduled_at" timestamp with time zone DEFAULT now() NOT NULL,
	"attempted_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	"discarded_at" timestamp with time zone,
	"cancelled_at" timestamp with time zone,
	"errors" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"unique_key" text,
	"locked_by" text,
	"lease_until" timestamp with time zone,
	"space_id" uuid REFERENCES "spaces"("id") ON DELETE CASCADE,
	"inserted_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "jobs_state_check" CHECK ("state" in ('available', 'executing', 'retryable', 'completed', 'discarded', 'cancelled')),
	CONSTRAINT "jobs_attempts_check" CHECK ("max_attempts" > 0 and "attempt" >= 0)
);
--> statement-breakpoint
-- The claim query: a queue's due rows in order of scheduled_at, over the claimable rows only (finished rows, the
-- bulk of the table until pruned, are not in it).
CREATE INDEX "jobs_claim_idx" ON "jobs" ("queue", "scheduled_at", "id") WHERE "state" in ('available', 'retryable');
--> statement-breakpoint
-- Reclaiming the jobs of a dead runner: the running rows whose lease has passed.
CREATE INDEX "jobs_lease_idx" ON "jobs" ("lease_until") WHERE "state" = 'executing';
--> statement-breakpoint
-- Pruning finished jobs by the time they finished.
CREATE INDEX "jobs_finished_idx" ON "jobs" ((coalesce("completed_at", "discarded_at", "cancelled_at"))) WHERE "state" in ('completed', 'discarded', 'cancelled');
--> statement-breakpoint
-- One job per unique key while it waits, runs or once it completed (so a periodic window or a delivery runs once
-- even when several processes enqueue it); a discarded or cancelled job frees its key for a new try.
CREATE UNIQUE INDEX "jobs_unique_key_idx" ON "jobs" ("unique_key") WHERE "unique_key" is not null and "state" not in ('discarded', 'cancelled');
--> statement-breakpoint
-- A space's jobs of one kind (and the cascade when a space is deleted).
CREATE INDEX "jobs_space_kind_idx" ON "jobs" ("space_id", "kind", "state") WHERE "space_id" is not null;
