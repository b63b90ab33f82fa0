package dev.ourios.server.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.util.HashSet;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;

/** The UI's files as the jar holds them: every file the page names is served, gzip is exact, ETags differ. */
class UiRoutesTest {
    @Test
    void every_file_the_page_names_is_served_and_nothing_is_inline() throws Exception {
        UiRoutes ui = UiRoutes.load();
        Set<String> served = new HashSet<>();
        Set<String> etags = new HashSet<>();
        for (UiAsset a : ui.assets()) {
            served.add(a.path());
            assertTrue(etags.add(a.etag()), a.path());
            try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(a.gzip()))) {
                assertEquals(new String(a.bytes(), "UTF-8"), new String(in.readAllBytes(), "UTF-8"), a.path());
            }
        }
        String page = new String(ui.assets().get(0).bytes(), "UTF-8");
        Matcher m = Pattern.compile("(?:src|href)=\"(/[^\"]*)\"").matcher(page);
        int named = 0;
        while (m.find()) {
            assertTrue(served.contains(m.group(1)), m.group(1) + " is named by the page but not served");
            named++;
        }
        assertEquals(3, named);
        assertFalse(Pattern.compile("<script>|<style|\\son[a-z]+=|\\sstyle=").matcher(page).find(), page);
        assertFalse(UiRoutes.CSP.contains("unsafe"), UiRoutes.CSP);
    }

    @Test
    void gzip_only_for_a_client_that_accepts_it() {
        assertTrue(UiRoutes.acceptsGzip("gzip, deflate, br"));
        assertTrue(UiRoutes.acceptsGzip("br;q=1.0, gzip;q=0.8"));
        assertTrue(UiRoutes.acceptsGzip("*"));
        assertFalse(UiRoutes.acceptsGzip(null));
        assertFalse(UiRoutes.acceptsGzip("identity"));
        assertFalse(UiRoutes.acceptsGzip("gzip;q=0"));
        assertFalse(UiRoutes.acceptsGzip("gzip; q=0.000"));
        assertFalse(UiRoutes.acceptsGzip("deflate, br"));
    }
}
