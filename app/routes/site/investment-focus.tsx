export default function InvestmentFocus() {
  return <h1>investment-focus</h1>;
}
