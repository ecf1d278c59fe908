CREATE INDEX `fund_access_users_fund_name_idx` ON `fund_access_users` (`fund_id`,"name" collate nocase);--> statement-breakpoint
CREATE INDEX `fund_access_users_fund_email_idx` ON `fund_access_users` (`fund_id`,"email" collate nocase);--> statement-breakpoint
CREATE INDEX `fund_access_users_fund_created_at_idx` ON `fund_access_users` (`fund_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `lp_users_admin_name_idx` ON `lp_users` (`is_admin`,"name" collate nocase);--> statement-breakpoint
CREATE INDEX `lp_users_admin_company_idx` ON `lp_users` (`is_admin`,(case when "company" is null or "company" = '' then 'N/A' else "company" end) collate nocase);--> statement-breakpoint
CREATE INDEX `lp_users_admin_email_idx` ON `lp_users` (`is_admin`,"email" collate nocase);--> statement-breakpoint
CREATE INDEX `lp_users_admin_created_at_idx` ON `lp_users` (`is_admin`,`created_at`);--> statement-breakpoint
CREATE INDEX `lp_users_status_name_idx` ON `lp_users` (`status`,`is_admin`,"name" collate nocase);--> statement-breakpoint
CREATE INDEX `lp_users_status_company_idx` ON `lp_users` (`status`,`is_admin`,(case when "company" is null or "company" = '' then 'N/A' else "company" end) collate nocase);--> statement-breakpoint
CREATE INDEX `lp_users_status_email_idx` ON `lp_users` (`status`,`is_admin`,"email" collate nocase);--> statement-breakpoint
CREATE INDEX `lp_users_status_created_at_idx` ON `lp_users` (`status`,`is_admin`,`created_at`);--> statement-breakpoint
CREATE INDEX `newsletter_subscribers_email_nocase_idx` ON `newsletter_subscribers` ("email" collate nocase);