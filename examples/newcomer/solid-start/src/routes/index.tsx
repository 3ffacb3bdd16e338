export default function Home() {
  return (
    <main>
      <h1>Hello world!</h1>
    </main>
  )
}
