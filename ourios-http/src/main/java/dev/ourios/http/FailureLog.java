package dev.ourios.http;

import org.slf4j.LoggerFactory;

/**
 * What the server tells its owner about requests: each one answered (for metrics and access logs), and each one
 * that failed with an unexpected exception, with its request id and stack trace. The client's 500 says only
 * "internal error" and the id, so the failure record is how an operator finds out what happened.
 */
public interface FailureLog {
    /** SLF4J at ERROR for failures, the stack trace attached; nothing for answered requests. */
    FailureLog SLF4J = (requestId, method, path, error) -> LoggerFactory.getLogger(HttpServer.class)
            .error("request {} {} {} failed", requestId, method, path, error);

    void failed(String requestId, String method, String path, Throwable error);

    /** A request was answered (or its response cut) with {@code status}, {@code nanos} after it was routed. */
    default void completed(String method, String path, int status, long nanos) {
    }
}
