package dev.ourios.http;

import org.slf4j.LoggerFactory;

/**
 * Where a request that failed with an unexpected exception is recorded, with its request id and stack trace: the
 * client's 500 says only "internal error" and the id, so this record is how an operator finds out what happened.
 */
@FunctionalInterface
public interface FailureLog {
    /** SLF4J at ERROR, the stack trace attached. */
    FailureLog SLF4J = (requestId, method, path, error) -> LoggerFactory.getLogger(HttpServer.class)
            .error("request {} {} {} failed", requestId, method, path, error);

    void failed(String requestId, String method, String path, Throwable error);
}
