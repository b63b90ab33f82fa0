package dev.ourios.store.s3;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.store.StoreException;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Retry policy: throttling and 5xx are retried with backoff; a lost create-only race is an answer, not an error. */
class S3RetryTest {
    private static final String LISTING = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>"
            + "<ListBucketResult xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\"><Name>b</Name><Prefix>p/</Prefix>"
            + "<KeyCount>1</KeyCount><MaxKeys>1000</MaxKeys><Delimiter>/</Delimiter><IsTruncated>false</IsTruncated>"
            + "<Contents><Key>p/x.parquet</Key><LastModified>2024-01-01T00:00:00.000Z</LastModified>"
            + "<ETag>\"abc\"</ETag><Size>3</Size></Contents></ListBucketResult>";

    private static S3ObjectStore storeAt(FakeS3Server server, int maxAttempts) {
        return new S3ObjectStore(S3Config.of("b", "p").withEndpoint(server.endpoint())
                .withCredentials(new S3Credentials("test", "testsecret")).withMaxAttempts(maxAttempts));
    }

    @Test
    void throttlingAndServerErrorsAreRetried() throws IOException {
        try (FakeS3Server server = new FakeS3Server(List.of(FakeS3Server.Reply.error(503, "SlowDown"),
                FakeS3Server.Reply.error(500, "InternalError"), new FakeS3Server.Reply(200, LISTING)));
             S3ObjectStore store = storeAt(server, 4)) {
            assertEquals(List.of("x.parquet"), store.listObjects("").stream().map(o -> o.name()).toList());
            assertEquals(3, server.requests());
            assertEquals(3, store.counters().snapshot().lists(), "every attempt is a billed request");
        }
    }

    @Test
    void persistentServerErrorsFailWithOneLineAfterMaxAttempts() throws IOException {
        try (FakeS3Server server = new FakeS3Server(List.of(FakeS3Server.Reply.error(500, "InternalError")));
             S3ObjectStore store = storeAt(server, 3)) {
            StoreException e = assertThrows(StoreException.class, () -> store.listObjects("d/"));
            assertEquals("LIST s3://b/p/d/ failed: HTTP 500 InternalError: scripted InternalError", e.getMessage());
            assertEquals(3, server.requests());
        }
    }

    @Test
    void preconditionFailedIsNotRetriedAndMeansAlreadyExists() throws IOException {
        try (FakeS3Server server = new FakeS3Server(List.of(FakeS3Server.Reply.error(412, "PreconditionFailed")));
             S3ObjectStore store = storeAt(server, 4)) {
            assertFalse(store.putIfAbsent("manifest/v2", new byte[] {1}));
            assertEquals(1, server.requests());
        }
    }

    @Test
    void conditionalConflictMeansAnotherWriterWins() throws IOException {
        try (FakeS3Server server = new FakeS3Server(List.of(FakeS3Server.Reply.error(409, "ConditionalRequestConflict")));
             S3ObjectStore store = storeAt(server, 4)) {
            assertFalse(store.putIfAbsent("manifest/v2", new byte[] {1}));
            assertTrue(server.requests() >= 1);
        }
    }

    @Test
    void preconditionFailedAfterARetryChecksWhetherTheEarlierAttemptWon() throws IOException {
        // attempt 1 is lost (500), attempt 2 sees the key taken (412), the GET shows our own bytes
        try (FakeS3Server server = new FakeS3Server(List.of(FakeS3Server.Reply.error(500, "InternalError"),
                FakeS3Server.Reply.error(412, "PreconditionFailed"), new FakeS3Server.Reply(200, "ours")));
             S3ObjectStore store = storeAt(server, 4)) {
            assertTrue(store.putIfAbsent("manifest/v2", "ours".getBytes(java.nio.charset.StandardCharsets.UTF_8)));
            assertEquals(3, server.requests());
        }
        try (FakeS3Server server = new FakeS3Server(List.of(FakeS3Server.Reply.error(500, "InternalError"),
                FakeS3Server.Reply.error(412, "PreconditionFailed"), new FakeS3Server.Reply(200, "theirs")));
             S3ObjectStore store = storeAt(server, 4)) {
            assertFalse(store.putIfAbsent("manifest/v2", "ours".getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        }
    }
}
