package dev.ourios.server.ui;

import dev.ourios.http.Exchange;
import dev.ourios.http.Route;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The UI's routes: {@code /} (the page) and its script, style sheet and icon under {@code /ui/}. Open routes (no
 * key): the files hold nothing secret, and the page asks for a key itself when the API refuses it.
 *
 * <p>Every answer carries a Content-Security-Policy that allows only this origin's files (no inline script or
 * style, no frames, no plugins), {@code X-Content-Type-Options: nosniff} and {@code Referrer-Policy: no-referrer}.
 * Files are sent gzipped to clients that accept it and revalidated by ETag ({@code Cache-Control: no-cache}), so a
 * new jar's files are picked up on the next load and an unchanged file costs a 304.
 */
public final class UiRoutes {
    public static final String CSP = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:;"
            + " connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

    private final List<UiAsset> assets;

    private UiRoutes(List<UiAsset> assets) {
        this.assets = assets;
    }

    /** The UI's files, loaded from the jar. */
    public static UiRoutes load() {
        return new UiRoutes(List.of(
                UiAsset.load("/", "index.html", "text/html; charset=utf-8"),
                UiAsset.load("/ui/app.js", "app.js", "text/javascript; charset=utf-8"),
                UiAsset.load("/ui/app.css", "app.css", "text/css; charset=utf-8"),
                UiAsset.load("/ui/icon.svg", "icon.svg", "image/svg+xml")));
    }

    /** The assets served. */
    public List<UiAsset> assets() {
        return assets;
    }

    public List<Route> routes() {
        List<Route> out = new ArrayList<>();
        for (UiAsset a : assets) {
            out.add(Route.open("GET", a.path(), ex -> serve(ex, a)));
        }
        return out;
    }

    private static void serve(Exchange ex, UiAsset a) throws IOException {
        ex.responseHeader("Content-Security-Policy", CSP);
        ex.responseHeader("X-Content-Type-Options", "nosniff");
        ex.responseHeader("X-Frame-Options", "DENY");
        ex.responseHeader("Referrer-Policy", "no-referrer");
        ex.responseHeader("Cache-Control", "no-cache");
        ex.responseHeader("ETag", a.etag());
        ex.responseHeader("Vary", "Accept-Encoding");
        String match = ex.header("If-None-Match");
        if (match != null && (match.contains(a.etag()) || match.strip().equals("*"))) {
            ex.send(304, a.contentType(), new byte[0]);
            return;
        }
        if (acceptsGzip(ex.header("Accept-Encoding"))) {
            ex.responseHeader("Content-Encoding", "gzip");
            ex.send(200, a.contentType(), a.gzip());
        } else {
            ex.send(200, a.contentType(), a.bytes());
        }
    }

    static boolean acceptsGzip(String header) {
        if (header == null) {
            return false;
        }
        for (String part : header.toLowerCase(Locale.ROOT).split(",")) {
            String[] p = part.strip().split(";");
            if (p[0].strip().equals("gzip") || p[0].strip().equals("*")) {
                return !(p.length > 1 && p[1].replace(" ", "").matches("q=0(\\.0*)?"));
            }
        }
        return false;
    }
}
