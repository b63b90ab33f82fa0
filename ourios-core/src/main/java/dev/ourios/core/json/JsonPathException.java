package dev.ourios.core.json;

/**
 * Invalid input, with the JSON path of the offending value ({@code resourceLogs[0].scopeLogs[1].logRecords[3]
 * .timeUnixNano}) so that one message is enough to find the fault in a large file.
 */
public final class JsonPathException extends IllegalArgumentException {
    private final String path;
    private final String problem;

    public JsonPathException(String path, String problem) {
        super(path.isEmpty() ? problem : path + ": " + problem);
        this.path = path;
        this.problem = problem;
    }

    public JsonPathException(String path, String problem, Throwable cause) {
        this(path, problem);
        initCause(cause);
    }

    /** Where the fault is; empty for the document as a whole. */
    public String path() {
        return path;
    }

    /** What is wrong, without the path. */
    public String problem() {
        return problem;
    }
}
