package dev.ourios.server.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The cursor of a truncated answer: round trips exactly, and anything else is a 400 naming the field. */
class QueryCursorTest {
    @Test
    void a_cursor_round_trips_including_the_extremes() {
        for (QueryCursor c : List.of(new QueryCursor(1_793_586_459_390_000_000L, 1), new QueryCursor(Long.MIN_VALUE,
                0), new QueryCursor(Long.MAX_VALUE, Long.MAX_VALUE), new QueryCursor(-1, 12))) {
            assertEquals(c, QueryCursor.decode(c.encode()));
            assertTrue(c.encode().matches("[A-Za-z0-9_-]+"), "URL- and JSON-safe: " + c.encode());
        }
    }

    @Test
    void a_cursor_the_server_did_not_issue_is_refused() {
        for (String bad : List.of("", "!!!", "not-a-cursor", enc("v2:1:1"), enc("v1:1"), enc("v1:x:1"),
                enc("v1:1:-3"), enc("v1:1:1:1"))) {
            BadRequest e = assertThrows(BadRequest.class, () -> QueryCursor.decode(bad), bad);
            assertEquals(400, e.status());
            assertEquals("cursor", e.fieldName());
        }
        BadRequest both = assertThrows(BadRequest.class, () -> QueryRequest.parseRequest("acme",
                ("{\"count\":true,\"cursor\":\"" + new QueryCursor(5, 1).encode() + "\"}")
                        .getBytes(StandardCharsets.UTF_8), 100));
        assertEquals("cursor", both.fieldName());
    }

    @Test
    void the_request_says_whether_its_limit_is_the_row_cap() {
        assertTrue(QueryRequest.parseRequest("acme", new byte[0], 100).limitIsCap());
        assertTrue(QueryRequest.parseRequest("acme", "{\"limit\":100}".getBytes(StandardCharsets.UTF_8), 100)
                .limitIsCap());
        assertEquals(false, QueryRequest.parseRequest("acme", "{\"limit\":99}".getBytes(StandardCharsets.UTF_8), 100)
                .limitIsCap());
    }

    private static String enc(String s) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(s.getBytes(StandardCharsets.US_ASCII));
    }
}
