package dev.ourios.http;

import org.eclipse.jetty.io.Content;

/**
 * A request body as it arrives, each chunk charged to a {@link Route.BodyMeter} before it is handed on: memory is
 * reserved for what a client has sent, never for a length it only announced. A refused charge ends the body with
 * the meter's refusal (the request is answered with it, the connection closed).
 */
final class MeteredSource implements Content.Source {
    private final Content.Source in;
    private final Route.BodyMeter meter;

    MeteredSource(Content.Source in, Route.BodyMeter meter) {
        this.in = in;
        this.meter = meter;
    }

    @Override
    public long getLength() {
        return in.getLength();
    }

    @Override
    public Content.Chunk read() {
        Content.Chunk chunk = in.read();
        if (chunk == null || Content.Chunk.isFailure(chunk)) {
            return chunk;
        }
        int n = chunk.remaining();
        if (n > 0) {
            HttpRefusal refused = meter.charge(n);
            if (refused != null) {
                chunk.release();
                in.fail(refused);
                return Content.Chunk.from(refused, true);
            }
        }
        return chunk;
    }

    @Override
    public void demand(Runnable demandCallback) {
        in.demand(demandCallback);
    }

    @Override
    public void fail(Throwable failure) {
        in.fail(failure);
    }
}
