export default function DeeptechFund() {
  return <h1>deeptech-fund</h1>;
}
