package dev.ourios.cli;

/** The job ran but something failed (a partition errored, a query failed); exit status 1. */
public class JobFailedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public JobFailedException(String message) {
        super(message);
    }

    public JobFailedException(String message, Throwable cause) {
        super(message, cause);
    }
}
