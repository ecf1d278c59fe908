CREATE TABLE `audit_events` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`at` integer NOT NULL,
	`actor_id` text,
	`actor_email` text,
	`event` text NOT NULL,
	`target_type` text,
	`target_id` text,
	`target_label` text,
	`ip` text,
	`user_agent` text,
	`request_id` text,
	`details` text DEFAULT '{}' NOT NULL
);
--> statement-breakpoint
CREATE INDEX `audit_events_at_idx` ON `audit_events` (`at`);--> statement-breakpoint
CREATE INDEX `audit_events_event_at_idx` ON `audit_events` (`event`,`at`);--> statement-breakpoint
CREATE INDEX `audit_events_actor_at_idx` ON `audit_events` (`actor_email`,`at`);--> statement-breakpoint
CREATE INDEX `audit_events_target_id_at_idx` ON `audit_events` (`target_id`,`at`);--> statement-breakpoint
CREATE INDEX `audit_events_target_label_at_idx` ON `audit_events` ("target_label" collate nocase,`at`);--> statement-breakpoint
-- Append-only from the app: no update ever; a delete only of rows the retention may remove
-- (older than 30 days, the shortest AUDIT_RETENTION_DAYS allowed).
CREATE TRIGGER `audit_events_no_update` BEFORE UPDATE ON `audit_events` BEGIN
  SELECT RAISE(ABORT, 'audit_events is append-only');
END;
--> statement-breakpoint
CREATE TRIGGER `audit_events_no_early_delete` BEFORE DELETE ON `audit_events`
WHEN old.`at` > cast(unixepoch('subsec') * 1000 as integer) - 30 * 86400000 BEGIN
  SELECT RAISE(ABORT, 'audit_events rows younger than 30 days cannot be deleted');
END;
