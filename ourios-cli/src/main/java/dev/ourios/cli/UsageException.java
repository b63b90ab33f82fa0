package dev.ourios.cli;

/** Bad usage or bad input: one line naming the flag, file or partition at fault; exit status 2. */
public class UsageException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public UsageException(String message) {
        super(message);
    }

    public UsageException(String message, Throwable cause) {
        super(message, cause);
    }
}
