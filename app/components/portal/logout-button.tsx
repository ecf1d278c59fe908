import { LogOut } from "lucide-react";
import { Form } from "react-router";
import { portalCopy } from "~/content/portal";
import { Button } from "../ui/form";

/**
 * 'Logout': a POST to /logout, which ends the session on the server and goes
 * to /lp/login. A plain form, so it works without JavaScript; with it, React
 * Router follows the redirect and reloads every loader (no stale data stays).
 */
export function LogoutButton({ className = "" }: { className?: string }) {
  return (
    <Form method="post" action="/logout" className={className}>
      <Button type="submit" variant="secondary">
        <LogOut aria-hidden="true" className="size-4" />
        {portalCopy.logout}
      </Button>
    </Form>
  );
}
