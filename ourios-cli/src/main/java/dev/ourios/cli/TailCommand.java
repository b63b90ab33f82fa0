package dev.ourios.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Iterator;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code ourios tail}: follows a running {@code ourios serve}'s {@code GET /v1/tail}, printing each row as it lands
 * (JSON lines with {@code --json}); rows the server dropped for falling behind are reported on stderr. Ends when the
 * server stops the tail (exit 0) or the connection fails (exit 1); a refused request exits 2 for a 400 and 1
 * otherwise, with the server's message.
 */
@Command(name = "tail", mixinStandardHelpOptions = true,
        description = "Follow a running server's new rows matching a query (GET /v1/tail)")
public final class TailCommand implements Callable<Integer> {
    /** The environment variable holding the API key sent as a bearer token, when the server has a keys file. */
    static final String TOKEN_ENV = "OURIOS_API_KEY";
    private static final ObjectMapper JSON = new ObjectMapper();

    @Option(names = "--http", required = true, paramLabel = "URL", description = "The server's query endpoint, "
            + "e.g. http://127.0.0.1:4319")
    String http;

    @Option(names = "--tenant", required = true, description = "Tenant id (X-Ourios-Tenant)")
    String tenant;

    @Option(names = {"-q", "--search"}, paramLabel = "QUERY", description = "Search query (docs/spec/query.md); "
            + "default: every row")
    String search;

    @Option(names = "--json", description = "Rows as JSON lines (the objects of POST /v1/query)")
    boolean json;

    @Override
    public Integer call() throws Exception {
        TenantArg.require("--tenant", tenant);
        if (search != null) {
            RowFilters.search(search); // a bad query is refused here, with its column, before connecting
        }
        URI uri = uri();
        HttpRequest.Builder req = HttpRequest.newBuilder(uri).header("X-Ourios-Tenant", tenant)
                .header("Accept", "text/event-stream").GET();
        String token = System.getenv(TOKEN_ENV);
        if (token != null && !token.isBlank()) {
            req.header("Authorization", "Bearer " + token.trim());
        }
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
        Output out = Output.system();
        HttpResponse<Stream<String>> response;
        try {
            response = client.send(req.build(), HttpResponse.BodyHandlers.ofLines());
        } catch (IOException e) {
            throw new JobFailedException("tail: cannot reach " + uri.getHost() + ":" + uri.getPort() + ": " + e, e);
        }
        if (response.statusCode() != 200) {
            String message = refusal(response.body());
            if (response.statusCode() == 400) {
                throw new UsageException("tail: " + message);
            }
            throw new JobFailedException("tail: the server answered " + response.statusCode() + ": " + message);
        }
        return follow(response.body(), out);
    }

    private int follow(Stream<String> lines, Output out) {
        String event = "message";
        try (lines) {
            Iterator<String> it = lines.iterator();
            while (it.hasNext()) {
                String line = it.next();
                if (line.isEmpty()) {
                    event = "message";
                } else if (line.startsWith("event: ")) {
                    event = line.substring("event: ".length());
                } else if (line.startsWith("data: ")) {
                    String data = line.substring("data: ".length());
                    switch (event) {
                        case "dropped" -> out.err().println("ourios: " + JSON.readTree(data).path("dropped").asLong()
                                + " rows dropped: this client fell behind the server's queue");
                        case "end" -> {
                            out.err().println("ourios: the server ended the tail ("
                                    + TableText.escape(JSON.readTree(data).path("reason").asText()) + ")");
                            return 0;
                        }
                        default -> row(out, data);
                    }
                }
            }
        } catch (IOException | java.io.UncheckedIOException e) {
            throw new JobFailedException("tail: the stream failed: " + e.getMessage(), e);
        }
        throw new JobFailedException("tail: the server closed the stream");
    }

    private void row(Output out, String data) throws IOException {
        if (json) {
            out.out().println(data);
        } else {
            JsonNode r = JSON.readTree(data);
            out.out().printf("%s  %-16s %-5s %s%n", r.path("time").asText(), TableText.escape(r.path("service")
                    .asText("-")), TableText.escape(r.path("severity_text").asText(r.path("severity_number")
                    .asText())), TableText.escape(r.path("body").isTextual() ? r.path("body").asText()
                    : "[template " + r.path("template_id").asText() + "]"));
        }
        out.out().flush();
    }

    private URI uri() {
        String base = http.endsWith("/") ? http.substring(0, http.length() - 1) : http;
        if (!base.startsWith("http://") && !base.startsWith("https://")) {
            base = "http://" + base;
        }
        String query = search == null ? "" : "?q=" + URLEncoder.encode(search, StandardCharsets.UTF_8);
        try {
            return URI.create(base + "/v1/tail" + query);
        } catch (IllegalArgumentException e) {
            throw new UsageException("--http: '" + http + "' is not a URL (e.g. http://127.0.0.1:4319)");
        }
    }

    /** The message of a JSON error body, bounded, or the start of the body. */
    private static String refusal(Stream<String> body) {
        String text;
        try (body) {
            text = String.join("\n", body.limit(20).toList());
        }
        try {
            JsonNode m = JSON.readTree(text).path("error").path("message");
            if (m.isTextual()) {
                return TableText.escape(clip(m.asText()));
            }
        } catch (IOException e) {
            // not JSON: shown as text below
        }
        return TableText.escape(clip(text));
    }

    /** Bounds a server's message. */
    private static String clip(String s) {
        return s.length() <= 300 ? s : s.substring(0, 300) + "…";
    }
}
