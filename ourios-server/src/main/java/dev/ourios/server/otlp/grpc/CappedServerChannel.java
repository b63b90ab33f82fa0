package dev.ourios.server.otlp.grpc;

import io.grpc.netty.shaded.io.netty.channel.Channel;
import io.grpc.netty.shaded.io.netty.channel.socket.nio.NioServerSocketChannel;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A listening channel that holds at most {@code max} open connections, as the HTTP ports do
 * ({@code http.max_connections}): at the cap it stops accepting, so further connections wait in the kernel's accept
 * backlog, and it accepts again as soon as one closes. grpc-java has no connection limit of its own.
 */
final class CappedServerChannel extends NioServerSocketChannel {
    private final int max;
    private final AtomicInteger open = new AtomicInteger();

    CappedServerChannel(int max) {
        if (max < 1) {
            throw new IllegalArgumentException("max connections must be at least 1, got " + max);
        }
        this.max = max;
    }

    /** Connections accepted and not yet closed. */
    int open() {
        return open.get();
    }

    @Override
    protected int doReadMessages(List<Object> buf) throws Exception {
        int first = buf.size();
        int accepted = super.doReadMessages(buf);
        for (int i = first; i < buf.size(); i++) {
            Channel child = (Channel) buf.get(i);
            open.incrementAndGet();
            child.closeFuture().addListener(f -> closed());
        }
        if (open.get() >= max) {
            config().setAutoRead(false); // the rest wait in the backlog
        }
        return accepted;
    }

    private void closed() {
        if (open.decrementAndGet() < max) {
            eventLoop().execute(() -> {
                if (isOpen() && !config().isAutoRead() && open.get() < max) {
                    config().setAutoRead(true);
                }
            });
        }
    }
}
