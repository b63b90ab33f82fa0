package dev.ourios.bench.ingest;

import java.util.List;

/** The requests clients send, in order: each with its record count and both of its encodings. */
public record RequestPool(List<Request> requests) {
    public RequestPool {
        requests = List.copyOf(requests);
        if (requests.isEmpty()) {
            throw new IllegalArgumentException("no requests");
        }
    }

    public long records() {
        return requests.stream().mapToLong(Request::records).sum();
    }

    public long protobufBytes() {
        return requests.stream().mapToLong(r -> r.protobuf().length).sum();
    }

    public long jsonBytes() {
        return requests.stream().mapToLong(r -> r.json().length + 1L).sum();
    }

    /** One ExportLogsServiceRequest: {@code protobuf} and {@code json} (one line) encode the same records. */
    public record Request(int records, byte[] protobuf, byte[] json) {
    }
}
