package dev.ourios.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.extension.TestWatcher;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.Keys;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The web UI in a real browser: headless Chromium, driven by Selenium through the system's chromedriver, against a
 * {@code serve} child over generated data. What the page shows is compared with what the API answers for the same
 * question. Without Chromium and chromedriver installed the tests are skipped, saying so.
 *
 * <p>A failing test saves a screenshot to {@code target/ui-failure-<test>.png}; the explorer's screenshot is saved
 * to {@code target/ui.png}, and to the path of the system property {@code ourios.ui.screenshot} when given (the
 * README's {@code docs/ui.png} is taken this way).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class UiBrowserTest {
    static final Path CHROMIUM = Path.of(System.getProperty("ourios.chromium", "/usr/bin/chromium"));
    static final Path CHROMEDRIVER = Path.of(System.getProperty("ourios.chromedriver", "/usr/bin/chromedriver"));
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern TIME = Pattern.compile("(\\d{4}-\\d\\d-\\d\\d)T(\\d\\d:\\d\\d:\\d\\d)(?:\\.(\\d+))?Z");

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private Path dir;
    private DaemonProcess serve;
    private String base;
    private WebDriver driver;

    @RegisterExtension
    final TestWatcher screenshots = new TestWatcher() {
        @Override
        public void testFailed(ExtensionContext context, Throwable cause) {
            if (driver != null) {
                save(Path.of("target", "ui-failure-" + context.getRequiredTestMethod().getName() + ".png"));
            }
        }
    };

    @BeforeAll
    void start() throws Exception {
        boolean installed = Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER);
        String why = "UiBrowserTest: browser tests skipped: no " + CHROMIUM + " or no " + CHROMEDRIVER
                + " (apt-get install chromium chromium-driver)";
        if (!installed) {
            System.out.println(why); // surefire shows an aborted class only as "Tests run: 0"
        }
        assumeTrue(installed, why);
        dir = Files.createTempDirectory("ourios-ui");
        Path store = dir.resolve("store");
        var gen = CliProcess.run(dir, "generate", "--store", store.toString(), "--hours", "3", "--files-per-hour", "2",
                "--rows-per-file", "400");
        assertEquals(0, gen.exit(), gen.err());
        serve = DaemonProcess.start(dir, Map.of("OURIOS_COMPACTION_ENABLED", "false",
                "OURIOS_INGEST_FLUSH_INTERVAL", "200ms"), "serve", "--store", store.toString(), "--http",
                "127.0.0.1:0");
        base = "http://127.0.0.1:" + serve.port();
        driver = browser(dir.resolve("chromium-profile"));
    }

    /** Chromium and chromedriver from the system, named explicitly: Selenium Manager never downloads anything. */
    static WebDriver browser(Path profile) {
        System.setProperty("webdriver.chrome.driver", CHROMEDRIVER.toString());
        ChromeOptions o = new ChromeOptions();
        o.setBinary(CHROMIUM.toFile());
        o.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-dev-shm-usage", "--window-size=1280,800", "--user-data-dir=" + profile);
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(CHROMEDRIVER.toFile())
                .usingAnyFreePort().build();
        ChromeDriver d = new ChromeDriver(service, o);
        d.manage().timeouts().pageLoadTimeout(WAIT).scriptTimeout(Duration.ofSeconds(10));
        return d;
    }

    @AfterAll
    void stop() throws Exception {
        if (driver != null) {
            driver.quit();
        }
        if (serve != null) {
            assertEquals(0, serve.terminate(), String.join("\n", serve.err()));
            serve.close();
        }
    }

    @Test
    void a_search_shows_the_rows_the_api_returns_and_more_pages_through_the_cursor() throws Exception {
        String service = api("/v1/query", "{\"limit\":1}").get("rows").get(0).get("service").asText();
        String q = "service:" + service;
        open("range=24h&q=" + enc(q), 1);
        assertEquals(q, driver.findElement(By.id("q")).getAttribute("value"));
        JsonNode first = api("/v1/query", body(q, null));
        assertEquals(expected(first), shown(), "the first page as the API answers it");
        assertTrue(first.has("cursor"), "the generated service has more than one page of rows");
        driver.findElement(By.id("more")).click();
        JsonNode second = api("/v1/query", body(q, first.get("cursor").asText()));
        List<String> both = expected(first);
        both.addAll(expected(second));
        new WebDriverWait(driver, WAIT).until(d -> shown().size() == both.size());
        assertEquals(both, shown(), "the second page follows the first");
    }

    @Test
    void a_query_that_does_not_parse_is_shown_at_the_column_the_api_names() throws Exception {
        String q = "service:(cart";
        HttpResponse<String> refused = serve.post("/v1/query", null, "{\"q\":" + quote(q) + "}");
        assertEquals(400, refused.statusCode(), refused.body());
        String message = JSON.readTree(refused.body()).get("error").get("message").asText();
        Matcher column = Pattern.compile("column (\\d+)").matcher(message);
        assertTrue(column.find(), message);
        open("range=1h&q=" + enc(q), 1);
        assertTrue(driver.findElement(By.id("q-error")).isDisplayed());
        assertEquals(message, driver.findElement(By.id("q-message")).getText());
        String[] caret = driver.findElement(By.id("q-caret")).getText().split("\n");
        assertEquals(q, caret[0]);
        assertEquals(Integer.parseInt(column.group(1)) - 1, caret[1].indexOf('^'), "the caret under the column");
        assertEquals("true", driver.findElement(By.id("q")).getAttribute("aria-invalid"));
    }

    @Test
    void the_histogram_total_is_what_stats_counts() throws Exception {
        open("range=24h", 1);
        long shownTotal = Long.parseLong(driver.findElement(By.id("hist-total")).getAttribute("data-total"));
        Instant now = Instant.now();
        JsonNode stats = api("/v1/stats", "{\"from\":\"" + now.minus(Duration.ofHours(24)) + "\",\"to\":\"" + now
                + "\",\"group_by\":[\"severity\"]}");
        assertEquals(stats.get("total").asLong(), shownTotal);
        assertEquals(2400, shownTotal, "every generated row is in the day");
        assertFalse(driver.findElements(By.cssSelector("#hist-svg rect")).isEmpty(), "bars are drawn");
    }

    @Test
    void clicking_a_value_narrows_the_search_and_the_link_holds_it() throws Exception {
        open("range=24h", 1);
        List<WebElement> rows = driver.findElements(By.cssSelector("#rows li"));
        rows.get(0).click();
        WebElement value = driver.findElement(By.cssSelector("#detail button[data-field='service']"));
        String service = value.getText();
        value.click();
        awaitSearch(2);
        assertEquals("service:" + service, driver.findElement(By.id("q")).getAttribute("value"));
        List<String> services = new ArrayList<>();
        for (WebElement r : driver.findElements(By.cssSelector("#rows li .svc"))) {
            services.add(r.getText());
        }
        assertFalse(services.isEmpty());
        assertTrue(services.stream().allMatch(service::equals), services.toString());
        String url = driver.getCurrentUrl();
        assertTrue(url.contains("q=service%3A" + enc(service).replace("+", "%20")) || url.contains("q=service%3A"
                + enc(service)), url);
        // the link reproduces the view in a fresh load
        driver.get("about:blank");
        driver.get(url);
        awaitSearch(1);
        assertEquals("service:" + service, driver.findElement(By.id("q")).getAttribute("value"));

        // the field list: a top value of severity narrows the search too
        new WebDriverWait(driver, WAIT).until(d -> "1".equals(d.findElement(By.tagName("body"))
                .getAttribute("data-fields")));
        driver.findElement(By.xpath("//aside[@id='fields']//button[starts-with(normalize-space(.), 'severity')]"))
                .click();
        WebElement top = new WebDriverWait(driver, WAIT).until(d -> d.findElements(
                By.cssSelector("#field-list button[data-field='severity']")).stream().findFirst().orElse(null));
        String severity = top.getText().replaceAll("\\d+$", "").trim();
        top.click();
        awaitSearch(2);
        assertEquals("service:" + service + " severity:" + severity,
                driver.findElement(By.id("q")).getAttribute("value"));
    }

    @Test
    void a_record_sent_over_otlp_appears_in_the_live_tail() throws Exception {
        open("range=15m&live=1", 1);
        new WebDriverWait(driver, WAIT).until(d -> "subscribed".equals(d.findElement(By.tagName("body"))
                .getAttribute("data-tail")));
        String marker = "tail-" + UUID.randomUUID();
        long sent = System.nanoTime();
        String otlp = "{\"resourceLogs\":[{\"resource\":{\"attributes\":[{\"key\":\"service.name\",\"value\":"
                + "{\"stringValue\":\"ui-tail\"}}]},\"scopeLogs\":[{\"logRecords\":[{\"timeUnixNano\":\""
                + (System.currentTimeMillis() * 1_000_000L) + "\",\"severityNumber\":17,\"severityText\":\"ERROR\","
                + "\"body\":{\"stringValue\":\"" + marker + "\"}}]}]}]}";
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + serve.ingestPort()
                + "/v1/logs")).timeout(WAIT).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(otlp)).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body());
        new WebDriverWait(driver, Duration.ofSeconds(10)).until(d -> d.findElements(
                By.xpath("//ol[@id='rows']/li[contains(., '" + marker + "')]")).size() == 1);
        System.out.printf("UI live tail: a record sent over OTLP shown after %d ms%n",
                (System.nanoTime() - sent) / 1_000_000);
        WebElement row = driver.findElement(By.cssSelector("#rows li"));
        assertTrue(row.getText().contains(marker), "newest first: " + row.getText());
        assertEquals("sev sev-error", row.findElement(By.className("sev")).getAttribute("class"));
    }

    @Test
    void the_layout_holds_at_desktop_and_phone_widths_and_the_keyboard_reaches_everything() throws Exception {
        for (Dimension size : List.of(new Dimension(1280, 800), new Dimension(390, 844))) {
            driver.manage().window().setSize(size);
            open("range=24h", 1);
            noHorizontalOverflow(size);
            if (size.getWidth() == 1280) {
                new WebDriverWait(driver, WAIT).until(d -> "1".equals(d.findElement(By.tagName("body"))
                        .getAttribute("data-fields")));
                save(Path.of("target", "ui.png"));
                String docs = System.getProperty("ourios.ui.screenshot");
                if (docs != null) {
                    Files.copy(Path.of("target", "ui.png"), Path.of(docs), StandardCopyOption.REPLACE_EXISTING);
                }
            }
            // keyboard: "/" focuses the search, arrow down reaches the rows, Enter opens one, Esc closes it
            driver.findElement(By.tagName("body")).sendKeys("/");
            assertEquals("q", active().getAttribute("id"));
            active().sendKeys(Keys.ARROW_DOWN);
            assertEquals("li", active().getTagName());
            active().sendKeys(Keys.ARROW_DOWN);
            String second = active().getText();
            assertEquals(driver.findElements(By.cssSelector("#rows li")).get(1).getText(), second);
            active().sendKeys(Keys.ENTER);
            assertTrue(driver.findElement(By.id("detail")).isDisplayed());
            noHorizontalOverflow(size);
            active().sendKeys(Keys.ESCAPE);
            assertFalse(driver.findElement(By.id("detail")).isDisplayed());
            assertEquals(second, active().getText(), "focus returns to the row");
        }
        driver.manage().window().setSize(new Dimension(1280, 800));
    }

    @Test
    void the_store_page_shows_the_status_figures() throws Exception {
        JsonNode status = JSON.readTree(serve.get("/v1/status", null).body());
        JsonNode tenant = status.get("store").get("tenants").get(0);
        for (Dimension size : List.of(new Dimension(1280, 800), new Dimension(390, 844))) {
            driver.manage().window().setSize(size);
            driver.get("about:blank");
            driver.get(base + "/#page=store");
            WebElement row = new WebDriverWait(driver, WAIT).until(d -> d.findElements(
                    By.xpath("//main[@id='store']//table[1]//tr[td]")).stream().findFirst().orElse(null));
            List<String> cells = new ArrayList<>();
            for (WebElement td : row.findElements(By.tagName("td"))) {
                cells.add(td.getText());
            }
            assertEquals(List.of(tenant.get("tenant").asText(), tenant.get("hours").asText(),
                    tenant.get("live_files").asText()), cells.subList(0, 3));
            assertEquals("100%", cells.get(4), "every generated file is small");
            String text = driver.findElement(By.id("status")).getText();
            assertTrue(text.contains(status.get("compaction").get("backlog_partitions").asText()
                    + " sealed partition(s) waiting"), text);
            assertTrue(text.contains("Retention"), text);
            noHorizontalOverflow(size);
        }
        driver.manage().window().setSize(new Dimension(1280, 800));
    }

    @Test
    void timings_of_first_paint_histogram_and_first_page() throws Exception {
        open("range=24h", 1);
        driver.findElement(By.id("run")).click();
        awaitSearch(2);
        Object paint = js("const p = performance.getEntriesByName('first-contentful-paint')[0];"
                + " return p ? p.startTime : -1;");
        Object rows = js("return performance.measure('r', 'ourios-search-start-2', 'ourios-rows-2').duration;");
        Object hist = js("return performance.measure('h', 'ourios-search-start-2', 'ourios-histogram-2').duration;");
        Object cold = js("return performance.measure('c', 'ourios-search-start-1', 'ourios-search-done-1').duration;");
        System.out.printf("UI timing (2400 rows over a day): first contentful paint %.0f ms; cold search %.0f ms;"
                + " warm first page of rows %.0f ms, warm histogram %.0f ms%n", num(paint), num(cold), num(rows),
                num(hist));
        assertTrue(num(paint) > 0 && num(rows) > 0 && num(hist) > 0, "the marks were set");
    }

    /**
     * The same timings on the store {@code ourios demo} builds (2 tenants x 2 hours x 32 files x 2,000 rows, then one
     * compaction sweep): opt-in, as building it takes a while; run with {@code -Dourios.ui.demo=true}.
     */
    @Test
    void timings_on_the_demo_store() throws Exception {
        assumeTrue(Boolean.getBoolean("ourios.ui.demo"), "demo-store timings skipped: run with -Dourios.ui.demo=true");
        Path demoDir = Files.createDirectories(dir.resolve("demo"));
        Path store = demoDir.resolve("ourios-data");
        var demo = CliProcess.run(demoDir, "demo", "--store", store.toString());
        assertEquals(0, demo.exit(), demo.err());
        assertTrue(demo.out().contains("http://127.0.0.1:4319/"), demo.out());
        try (DaemonProcess demoServe = DaemonProcess.start(demoDir, Map.of("OURIOS_COMPACTION_ENABLED", "false"),
                "serve", "--store", store.toString(), "--http", "127.0.0.1:0")) {
            String url = "http://127.0.0.1:" + demoServe.port() + "/#range=24h&tenant=acme";
            driver.get("about:blank");
            driver.get(url);
            awaitSearch(1);
            awaitFields(1);
            driver.findElement(By.id("run")).click();
            awaitSearch(2);
            awaitFields(2);
            driver.findElement(By.id("run")).click();
            awaitSearch(3);
            System.out.printf("UI timing on the demo store (tenant acme, a day): first contentful paint %.0f ms;"
                    + " cold search %.0f ms; warm first page of rows %.0f ms, warm histogram %.0f ms; histogram"
                    + " total %s rows; fields listed %.0f ms after the rows and histogram%n",
                    num(js("const p = performance.getEntriesByName('first-contentful-paint')[0];"
                            + " return p ? p.startTime : -1;")),
                    num(js("return performance.measure('c', 'ourios-search-start-1', 'ourios-search-done-1')"
                            + ".duration;")),
                    num(js("return performance.measure('r', 'ourios-search-start-3', 'ourios-rows-3').duration;")),
                    num(js("return performance.measure('h', 'ourios-search-start-3', 'ourios-histogram-3')"
                            + ".duration;")),
                    driver.findElement(By.id("hist-total")).getAttribute("data-total"),
                    num(js("return performance.measure('f', 'ourios-search-done-2', 'ourios-fields-2').duration;")));
            assertEquals(0, demoServe.terminate(), String.join("\n", demoServe.err()));
        }
    }

    @Test
    void with_keys_the_page_asks_for_one_refuses_a_wrong_one_and_offers_the_tenants_of_a_star_key() throws Exception {
        Path keysDir = Files.createDirectories(dir.resolve("keyed"));
        Path keys = keysDir.resolve("keys.json");
        String star = newKey(keysDir, keys, "everyone", "*", "query");
        Path store = keysDir.resolve("store");
        var gen = CliProcess.run(keysDir, "generate", "--store", store.toString(), "--tenant", "acme", "--tenant",
                "globex", "--hours", "1", "--files-per-hour", "1", "--rows-per-file", "20");
        assertEquals(0, gen.exit(), gen.err());
        try (DaemonProcess keyed = DaemonProcess.start(keysDir, Map.of("OURIOS_AUTH_KEYS_FILE", keys.toString(),
                "OURIOS_COMPACTION_ENABLED", "false"), "serve", "--store", store.toString(), "--http",
                "127.0.0.1:0")) {
            String url = "http://127.0.0.1:" + keyed.port() + "/";
            driver.get(url);
            WebDriverWait wait = new WebDriverWait(driver, WAIT);
            wait.until(d -> d.findElement(By.id("keyform")).isDisplayed());
            assertFalse(driver.findElement(By.id("explore")).isDisplayed(), "nothing is shown without a key");
            assertEquals("key", active().getAttribute("id"));
            active().sendKeys("not-a-key" + Keys.ENTER);
            wait.until(d -> d.findElement(By.id("key-error")).getText().startsWith("Refused (401"));
            assertEquals("Refused (401 Unauthorized): unknown API key",
                    driver.findElement(By.id("key-error")).getText());
            driver.findElement(By.id("key")).sendKeys(star + Keys.ENTER);
            wait.until(d -> "1".equals(d.findElement(By.tagName("body")).getAttribute("data-searches")));
            List<String> offered = new ArrayList<>();
            for (WebElement o : driver.findElements(By.cssSelector("#tenant option"))) {
                offered.add(o.getText());
            }
            assertTrue(offered.containsAll(List.of("acme", "globex")), offered.toString());
            assertEquals(star, js("return sessionStorage.getItem('ourios.key');"));
            assertEquals("", js("return localStorage.length ? 'stored' : '';"), "the key is never in localStorage");
            // the store page needs the admin scope: the refusal is shown as it is
            driver.get(url + "#page=store");
            driver.navigate().refresh();
            wait.until(d -> d.findElement(By.id("status")).getText().startsWith("Refused (403 Forbidden)"));
            assertTrue(driver.findElement(By.id("status")).getText().contains("lacks the scope 'admin'"),
                    driver.findElement(By.id("status")).getText());
            js("sessionStorage.clear();");
            assertEquals(0, keyed.terminate(), String.join("\n", keyed.err()));
        }
    }

    // ---- helpers ----

    private void open(String hash, int searches) {
        driver.get("about:blank");
        driver.get(base + "/#" + hash);
        awaitSearch(searches);
    }

    private void awaitSearch(int searches) {
        new WebDriverWait(driver, WAIT).until(d -> String.valueOf(searches).equals(
                d.findElement(By.tagName("body")).getAttribute("data-searches")));
        String notice = driver.findElement(By.id("notice")).getText();
        assertEquals("", notice, "no error shown");
    }

    private void awaitFields(int searches) {
        new WebDriverWait(driver, Duration.ofSeconds(120)).until(d -> String.valueOf(searches).equals(
                d.findElement(By.tagName("body")).getAttribute("data-fields")));
    }

    private List<String> shown() {
        List<String> out = new ArrayList<>();
        for (WebElement li : driver.findElements(By.cssSelector("#rows li"))) {
            out.add(li.findElement(By.className("t")).getText() + " | " + li.findElement(By.className("svc")).getText()
                    + " | " + li.findElement(By.className("line")).getText());
        }
        return out;
    }

    /** The rows of an API answer as the page writes them (UTC, the fraction to at least milliseconds). */
    private static List<String> expected(JsonNode answer) {
        List<String> out = new ArrayList<>();
        for (JsonNode r : answer.get("rows")) {
            Matcher m = TIME.matcher(r.get("time").asText());
            assertTrue(m.matches(), r.get("time").asText());
            String frac = m.group(3) == null ? "000" : m.group(3);
            frac = (frac + "000").substring(0, Math.min(6, Math.max(3, frac.length())));
            String line = r.get("body").isNull() ? null : r.get("body").asText();
            if (line == null) {
                StringBuilder b = new StringBuilder();
                JsonNode seps = r.get("separators");
                JsonNode ps = r.get("params");
                for (int i = 0; i < seps.size(); i++) {
                    b.append(seps.get(i).asText());
                    if (i < ps.size()) {
                        b.append(ps.get(i).get("value").asText());
                    }
                }
                line = b.toString();
            }
            out.add(m.group(1) + " " + m.group(2) + "." + frac + " | " + r.get("service").asText() + " | "
                    + line.strip());
        }
        return out;
    }

    private String body(String q, String cursor) {
        Instant now = Instant.now();
        return "{\"q\":" + quote(q) + ",\"from\":\"" + now.minus(Duration.ofHours(24)) + "\",\"to\":\"" + now
                + "\",\"limit\":100,\"order\":\"newest_first\"" + (cursor == null ? "" : ",\"cursor\":\"" + cursor
                + "\"") + "}";
    }

    private JsonNode api(String path, String json) throws Exception {
        HttpResponse<String> r = serve.post(path, null, json);
        assertEquals(200, r.statusCode(), r.body());
        return JSON.readTree(r.body());
    }

    private void noHorizontalOverflow(Dimension size) {
        Object widths = js("return [document.documentElement.scrollWidth, document.documentElement.clientWidth];");
        @SuppressWarnings("unchecked")
        List<Number> w = (List<Number>) widths;
        assertTrue(w.get(0).longValue() <= w.get(1).longValue(), "page wider than the window at " + size + ": " + w);
    }

    private WebElement active() {
        return driver.switchTo().activeElement();
    }

    private Object js(String script) {
        return ((JavascriptExecutor) driver).executeScript(script);
    }

    private void save(Path to) {
        try {
            Files.createDirectories(to.toAbsolutePath().getParent());
            Files.write(to, ((TakesScreenshot) driver).getScreenshotAs(OutputType.BYTES));
        } catch (Exception e) {
            System.err.println("screenshot not saved to " + to + ": " + e);
        }
    }

    private static String newKey(Path workDir, Path keys, String name, String tenant, String scope) throws Exception {
        var r = CliProcess.run(workDir, "keys", "new", "--keys-file", keys.toString(), "--name", name, "--tenant",
                tenant, "--scope", scope);
        assertEquals(0, r.exit(), r.err());
        return r.outLines().get(0).trim();
    }

    private static double num(Object o) {
        return o instanceof Number n ? n.doubleValue() : -1;
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    private static String quote(String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }
}
