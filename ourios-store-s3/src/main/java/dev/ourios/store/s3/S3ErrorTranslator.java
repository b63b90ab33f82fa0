package dev.ourios.store.s3;

import dev.ourios.store.NoSuchObjectException;
import dev.ourios.store.StoreException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.util.Locale;
import java.util.Optional;
import software.amazon.awssdk.core.exception.ApiCallAttemptTimeoutException;
import software.amazon.awssdk.core.exception.ApiCallTimeoutException;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * Turns SDK exceptions into one-line {@link StoreException}s that name the bucket or object and the cause. SDK
 * messages are multi-line and full of request ids; operators need "which bucket, what is wrong". The configured
 * secret is scrubbed from every message as a last line of defence, although no S3 error is known to echo it.
 */
final class S3ErrorTranslator {
    private final S3Config config;

    S3ErrorTranslator(S3Config config) {
        this.config = config;
    }

    /** @param operation e.g. "GET"; @param location e.g. "s3://b/p/key" */
    StoreException translate(SdkException e, String operation, String location) {
        if (e instanceof S3Exception s3) {
            return fromService(s3, operation, location);
        }
        Optional<Throwable> unreachable = findCause(e, ConnectException.class, UnknownHostException.class,
                NoRouteToHostException.class);
        if (unreachable.isPresent()) {
            return new StoreException(scrub("cannot reach S3 endpoint " + config.endpointForMessages() + " ("
                    + unreachable.get().getClass().getSimpleName() + ": " + firstLine(unreachable.get().getMessage())
                    + ") while trying " + operation + " " + location), e);
        }
        if (e instanceof ApiCallTimeoutException) {
            return new StoreException(scrub("S3 endpoint " + config.endpointForMessages() + " did not complete "
                    + operation + " " + location + " within the call timeout of " + seconds(config.timeouts().call())
                    + " (store.s3.call_timeout, OURIOS_S3_CALL_TIMEOUT)"), e);
        }
        if (e instanceof ApiCallAttemptTimeoutException) {
            return new StoreException(scrub("S3 endpoint " + config.endpointForMessages() + " did not answer "
                    + operation + " " + location + " within the attempt timeout of "
                    + seconds(config.timeouts().attempt())
                    + " (store.s3.attempt_timeout, OURIOS_S3_ATTEMPT_TIMEOUT)"), e);
        }
        Optional<Throwable> silent = findCause(e, SocketTimeoutException.class);
        if (silent.isPresent() && String.valueOf(silent.get().getMessage()).toLowerCase(Locale.ROOT)
                .contains("connect")) {
            return new StoreException(scrub("S3 endpoint " + config.endpointForMessages() + " did not accept a "
                    + "connection within " + seconds(config.timeouts().connect())
                    + " (store.s3.connect_timeout, OURIOS_S3_CONNECT_TIMEOUT) "
                    + "while trying " + operation + " " + location), e);
        }
        if (silent.isPresent()) {
            return new StoreException(scrub("S3 endpoint " + config.endpointForMessages() + " sent nothing for "
                    + seconds(config.timeouts().read()) + " (store.s3.read_timeout, OURIOS_S3_READ_TIMEOUT) while trying "
                    + operation + " "
                    + location), e);
        }
        if (e instanceof SdkClientException && e.getMessage() != null
                && e.getMessage().contains("Unable to load credentials")) {
            return new StoreException(scrub("no AWS credentials found for " + location
                    + " (set AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY, a profile or an instance role)"), e);
        }
        return new StoreException(scrub(operation + " " + location + " failed: " + firstLine(e.getMessage())), e);
    }

    private StoreException fromService(S3Exception e, String operation, String location) {
        int status = e.statusCode();
        String code = e.awsErrorDetails() == null ? null : e.awsErrorDetails().errorCode();
        if ("NoSuchBucket".equals(code)) {
            return noSuchBucket(e);
        }
        if (status == 404) {
            return new NoSuchObjectException(scrub("no such object: " + location));
        }
        if (status == 403) {
            return new StoreException(scrub("access denied to " + location + " (check credentials)"
                    + (code == null ? "" : ": " + code)), e);
        }
        String detail = e.awsErrorDetails() == null ? null : e.awsErrorDetails().errorMessage();
        return new StoreException(scrub(operation + " " + location + " failed: HTTP " + status
                + (code == null ? "" : " " + code) + (detail == null ? "" : ": " + firstLine(detail))), e);
    }

    NoSuchBucketException noSuchBucket(Throwable cause) {
        return new NoSuchBucketException(scrub("bucket '" + config.bucket() + "' does not exist at "
                + config.endpointForMessages()), cause);
    }

    private static String seconds(java.time.Duration d) {
        return d.toMillis() % 1000 == 0 ? d.toSeconds() + " s" : d.toMillis() + " ms";
    }

    private String scrub(String message) {
        String out = message.replace('\n', ' ').replace('\r', ' ');
        if (config.staticCredentials().isPresent()) {
            String secret = config.staticCredentials().get().secretAccessKey();
            if (!secret.isEmpty()) {
                out = out.replace(secret, "***");
            }
        }
        return out;
    }

    private static String firstLine(String s) {
        if (s == null) {
            return "(no message)";
        }
        int nl = s.indexOf('\n');
        return (nl < 0 ? s : s.substring(0, nl)).trim();
    }

    @SafeVarargs
    private static Optional<Throwable> findCause(Throwable t, Class<? extends Throwable>... types) {
        for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
            for (Class<? extends Throwable> type : types) {
                if (type.isInstance(c)) {
                    return Optional.of(c);
                }
            }
        }
        return Optional.empty();
    }
}
