/**
 * The site's theme: VitePress's default theme, with
 * - the colour overrides of ./custom.css where its palette falls short of WCAG AA contrast;
 * - a home layout whose hero, features and text stand in a `<main>` landmark (the default theme's
 *   home page has none, and axe's `region` and `landmark-one-main` rules say so). VitePress renders
 *   a component registered under a layout's name in place of its own.
 * Both are checked by docs/test/site.test.ts with axe-core.
 */
import { Content } from "vitepress"
import DefaultTheme, { VPHomeContent, VPHomeFeatures, VPHomeHero } from "vitepress/theme"
import { h } from "vue"
import "./custom.css"

const Home = {
  name: "SesameHome",
  setup() {
    return () => h("main", { id: "home", class: "VPHome sesame-home" }, [h(VPHomeHero), h(VPHomeFeatures), h(VPHomeContent, null, { default: () => h(Content) })])
  },
}

/** @type {import("vitepress").Theme} */
export default {
  extends: DefaultTheme,
  enhanceApp({ app }) {
    app.component("home", Home)
  },
}
