export default function FundDetail() {
  return <h1>fund-detail</h1>;
}
