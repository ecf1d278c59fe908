export default function Login() {
  return <h1>login</h1>;
}
