import { Link } from "react-router";
import type { Route } from "./+types/funds";
import { AdminPageHeader, adminPageTitle } from "~/components/admin/page-header";
import { Badge, DataTable, type DataColumn } from "~/components/kit/data-table";
import { fundsCopy as c } from "~/content/capital";
import { ADMIN_PATHS } from "~/modules/admin/paths";
import { requireAdmin } from "~/modules/auth/guards.server";
import { formatDecimal } from "~/modules/capital/money";
import { adminDate } from "~/modules/dates/format";
import { fundTotals } from "~/modules/fund-overview/fund-overview.server";
import { pageMeta } from "~/modules/seo/meta";

const PAGE = ADMIN_PATHS.funds;

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: adminPageTitle("funds"), description: c.intro, path: PAGE, noindex: true });

/** /admin/funds: each fund's totals (issue 24 §9). */
export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  return {
    funds: fundTotals().map((f) => {
      const money = (amount: string) => formatDecimal(amount, f.currency);
      return {
        slug: f.slug,
        name: f.name,
        status: c.table.status[f.status] ?? f.status,
        open: f.status === "open",
        vintage: String(f.vintageYear),
        entities: f.entities.toLocaleString("en-US"),
        commitments: money(f.commitments),
        called: money(f.called),
        calledShare: f.calledShare === null ? null : c.table.calledShare(`${(f.calledShare * 100).toFixed(1)} %`),
        distributed: money(f.distributed),
        nav: f.nav === null ? "—" : `${money(f.nav)} (${adminDate(new Date(`${f.navDate}T12:00:00Z`))})`,
      };
    }),
  };
}

type Row = Route.ComponentProps["loaderData"]["funds"][number];

const columns: DataColumn<Row>[] = [
  {
    key: "name",
    header: c.table.columns.name,
    rowHeader: true,
    card: "primary",
    cell: (f) => (
      <Link to={`${PAGE}/${f.slug}`} className="font-medium text-brand-700 underline-offset-4 hover:underline dark:text-brand-300">
        {f.name}
      </Link>
    ),
  },
  { key: "status", header: "Status", width: "w-24", card: "badge", cell: (f) => <Badge tone={f.open ? "success" : "neutral"}>{f.status}</Badge> },
  { key: "vintage", header: c.table.columns.vintage, width: "w-24", card: "meta", cell: (f) => f.vintage },
  { key: "entities", header: c.table.columns.entities, width: "w-24", className: "tabular-nums", cell: (f) => f.entities },
  { key: "commitments", header: c.table.columns.commitments, className: "tabular-nums", cell: (f) => f.commitments },
  {
    key: "called",
    header: c.table.columns.called,
    className: "tabular-nums",
    cell: (f) => (
      <>
        {f.called}
        {f.calledShare ? <span className="block text-xs text-slate-600 dark:text-slate-300">{f.calledShare}</span> : null}
      </>
    ),
  },
  { key: "distributed", header: c.table.columns.distributed, className: "tabular-nums", cell: (f) => f.distributed },
  { key: "nav", header: c.table.columns.nav, className: "tabular-nums", cell: (f) => f.nav },
];

export default function Funds({ loaderData }: Route.ComponentProps) {
  return (
    <>
      <AdminPageHeader page="funds" intro={c.intro} />
      <div className="mt-6">
        <DataTable label={c.table.label} rows={loaderData.funds} rowKey={(f) => f.slug} rowTestId="fund-row" columns={columns} />
      </div>
    </>
  );
}
