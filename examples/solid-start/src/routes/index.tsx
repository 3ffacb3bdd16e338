export default function Home() {
  return (
    <>
      <h1>Sesame on SolidStart</h1>
      <p>
        Sign in with the demo account (<code>demo@example.com</code> / <code>sesame-demo</code>) or the OpenID Provider, then
        visit the two protected pages:
      </p>
      <ul>
        <li>
          <a href="/account">Account</a>: its data comes from a server function that calls <code>requireSession</code>.
        </li>
        <li>
          <a href="/dashboard">Dashboard</a>: <code>authMiddleware</code> guards every request for it.
        </li>
      </ul>
    </>
  )
}
