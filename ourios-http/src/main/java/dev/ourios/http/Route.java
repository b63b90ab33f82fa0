package dev.ourios.http;

import java.util.Objects;

/**
 * One endpoint: a method and an exact path, how large a body it reads (0 = none), whether the {@link RequestGate}
 * checks it, an optional admission step run before the body is read, and the handler that answers it.
 */
public record Route(String method, String path, int maxBodyBytes, boolean gated, Admission admission,
        Handler handler) {

    /** Answers a request whose body (if the route reads one) is in {@link Exchange#body()}. */
    @FunctionalInterface
    public interface Handler {
        void handle(Exchange exchange) throws Exception;
    }

    /**
     * What an {@link Admission} may return instead of a plain release: the body is then charged to it chunk by
     * chunk as it arrives ({@link #charge}); {@link Runnable#run} releases everything charged and reserved.
     */
    public interface BodyMeter extends Runnable {
        /** Charges {@code bytes} more of the body; null when granted, else the refusal that ends the request. */
        HttpRefusal charge(long bytes);
    }

    /**
     * Runs after the gate and before the body is read: refuses by throwing {@link HttpRefusal} (e.g. 503 while
     * shutting down, 415 for a wrong media type, 429 when the memory the body would take is not available), else
     * returns what to run once the request is answered (e.g. giving the reserved memory back).
     */
    @FunctionalInterface
    public interface Admission {
        Admission NONE = (exchange, declaredLength) -> () -> { };

        /** @param declaredLength the request's Content-Length, or -1 when it sends none (chunked) */
        Runnable admit(Exchange exchange, long declaredLength);
    }

    public Route {
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(admission, "admission");
        Objects.requireNonNull(handler, "handler");
        if (maxBodyBytes < 0) {
            throw new IllegalArgumentException("maxBodyBytes must be >= 0, got " + maxBodyBytes);
        }
    }

    /** A route without a body, outside the gate (health and readiness). */
    public static Route open(String method, String path, Handler handler) {
        return new Route(method, path, 0, false, Admission.NONE, handler);
    }

    /** A route behind the gate, reading a body of at most {@code maxBodyBytes} (0 = none). */
    public static Route gated(String method, String path, int maxBodyBytes, Handler handler) {
        return new Route(method, path, maxBodyBytes, true, Admission.NONE, handler);
    }

    public Route withAdmission(Admission a) {
        return new Route(method, path, maxBodyBytes, gated, a, handler);
    }
}
