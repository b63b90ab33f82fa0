package dev.ourios.store.s3;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class S3StoreFactoryTest {
    @Test
    void parsesBucketAndPrefix() {
        S3Config c = S3StoreFactory.parse("s3://logs/prod/ourios/");
        assertEquals("logs", c.bucket());
        assertEquals("prod/ourios", c.prefix());
        assertEquals("prod/ourios/", c.keyPrefix());
        assertEquals(S3Config.DEFAULT_REGION, c.region());
        assertEquals(Optional.empty(), c.endpoint());
        assertFalse(c.pathStyle());
        assertEquals("https://s3.us-east-1.amazonaws.com", c.endpointForMessages());

        S3Config root = S3StoreFactory.parse("s3://logs");
        assertEquals("", root.prefix());
        assertEquals("", root.keyPrefix());
    }

    @Test
    void rejectsMalformedUris() {
        assertThrows(IllegalArgumentException.class, () -> S3StoreFactory.parse("/data/store"));
        assertThrows(IllegalArgumentException.class, () -> S3StoreFactory.parse("s3://"));
        assertThrows(IllegalArgumentException.class, () -> S3StoreFactory.parse("s3:///prefix"));
        assertThrows(IllegalArgumentException.class, () -> S3StoreFactory.parse("s3://b/a//c"));
        assertThrows(IllegalArgumentException.class, () -> S3StoreFactory.open("s3://b/p", Optional.of("ftp://x")));
        assertThrows(IllegalArgumentException.class, () -> S3StoreFactory.open("s3://b/p", Optional.of("not a uri")));
    }

    @Test
    void endpointMeansPathStyle() {
        try (S3ObjectStore store = S3StoreFactory.open("s3://b/p", Optional.of("http://127.0.0.1:9"))) {
            assertTrue(store.config().pathStyle());
            assertEquals(Optional.of(URI.create("http://127.0.0.1:9")), store.config().endpoint());
            assertEquals("s3://b/p/k", store.describe("k"));
        }
    }

    @Test
    void configRejectsTinyParts() {
        assertThrows(IllegalArgumentException.class, () -> new S3Config("b", "", Optional.empty(), "us-east-1",
                Optional.empty(), 1 << 20, 3));
    }

    @Test
    void credentialsNeverPrintTheSecret() {
        S3Config c = S3Config.of("b", "p").withCredentials(new S3Credentials("AKIDEXAMPLE", "s3cr3t-value"));
        assertFalse(c.toString().contains("s3cr3t-value"), c.toString());
        assertTrue(c.toString().contains("AKIDEXAMPLE"));
    }
}
