CREATE TABLE `pitch_events` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`pitch_id` text NOT NULL,
	`at` integer NOT NULL,
	`kind` text NOT NULL,
	`actor_id` text,
	`actor_email` text,
	`from_value` text,
	`to_value` text,
	`subject` text,
	`body` text,
	FOREIGN KEY (`pitch_id`) REFERENCES `pitch_submissions`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`actor_id`) REFERENCES `lp_users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `pitch_events_pitch_idx` ON `pitch_events` (`pitch_id`,`id`);--> statement-breakpoint
ALTER TABLE `newsletter_subscribers` ADD `status` text DEFAULT 'pending' NOT NULL;--> statement-breakpoint
ALTER TABLE `newsletter_subscribers` ADD `confirm_token_hash` text;--> statement-breakpoint
ALTER TABLE `newsletter_subscribers` ADD `confirm_expires_at` integer;--> statement-breakpoint
ALTER TABLE `newsletter_subscribers` ADD `confirm_sent_at` integer;--> statement-breakpoint
ALTER TABLE `newsletter_subscribers` ADD `confirmed_at` integer;--> statement-breakpoint
ALTER TABLE `newsletter_subscribers` ADD `consent_ip` text;--> statement-breakpoint
ALTER TABLE `newsletter_subscribers` ADD `consent_page` text;--> statement-breakpoint
ALTER TABLE `newsletter_subscribers` ADD `consent_text` text;--> statement-breakpoint
ALTER TABLE `newsletter_subscribers` ADD `consent_version` text;--> statement-breakpoint
ALTER TABLE `newsletter_subscribers` ADD `unsubscribed_at` integer;--> statement-breakpoint
CREATE UNIQUE INDEX `newsletter_subscribers_confirm_token_hash_unique` ON `newsletter_subscribers` (`confirm_token_hash`);--> statement-breakpoint
CREATE INDEX `newsletter_subscribers_status_created_idx` ON `newsletter_subscribers` (`status`,`created_at`);--> statement-breakpoint
ALTER TABLE `pitch_submissions` ADD `status` text DEFAULT 'new' NOT NULL;--> statement-breakpoint
ALTER TABLE `pitch_submissions` ADD `owner_id` text REFERENCES lp_users(id) ON DELETE SET NULL;--> statement-breakpoint
ALTER TABLE `pitch_submissions` ADD `due_at` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `pitch_submissions` ADD `answered_at` integer;--> statement-breakpoint
ALTER TABLE `pitch_submissions` ADD `deck_path` text;--> statement-breakpoint
ALTER TABLE `pitch_submissions` ADD `deck_name` text;--> statement-breakpoint
ALTER TABLE `pitch_submissions` ADD `deck_size` integer;--> statement-breakpoint
CREATE INDEX `pitch_submissions_status_created_idx` ON `pitch_submissions` (`status`,`created_at`);--> statement-breakpoint
CREATE INDEX `pitch_submissions_owner_created_idx` ON `pitch_submissions` (`owner_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `pitch_submissions_open_due_idx` ON `pitch_submissions` (`due_at`) WHERE answered_at is null;--> statement-breakpoint
-- Addresses kept before double opt-in signed up through the single opt-in form: they stay on the list, marked as such (decision 010).
UPDATE `newsletter_subscribers` SET `status` = 'confirmed', `confirmed_at` = `created_at`, `consent_version` = 'single-opt-in (before double opt-in)';
