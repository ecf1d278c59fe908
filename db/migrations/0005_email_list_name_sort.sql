DROP INDEX `fund_access_users_fund_name_idx`;--> statement-breakpoint
DROP INDEX `lp_users_admin_name_idx`;--> statement-breakpoint
DROP INDEX `lp_users_admin_company_idx`;--> statement-breakpoint
DROP INDEX `lp_users_status_name_idx`;--> statement-breakpoint
DROP INDEX `lp_users_status_company_idx`;