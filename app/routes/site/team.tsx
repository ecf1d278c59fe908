export default function Team() {
  return <h1>team</h1>;
}
