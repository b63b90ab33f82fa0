package dev.ourios.http;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.server.internal.HttpConnection;
import org.eclipse.jetty.util.thread.Scheduler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Closes a connection whose request headers take longer than the header timeout. Jetty's idle timeout only
 * notices a connection on which nothing arrives; a client that trickles a header one byte at a time would keep it
 * forever. Every {@code timeout} each connection is looked at: one that has completed no request since it was
 * opened, or that was part-way through the same request's headers at the previous look, is closed. A connection
 * is therefore closed between one and two timeouts after its headers started.
 */
final class HeaderTimeout implements Connection.Listener {
    private static final Logger LOG = LoggerFactory.getLogger(HeaderTimeout.class);
    private final Scheduler scheduler;
    private final long millis;

    HeaderTimeout(Scheduler scheduler, Duration timeout) {
        this.scheduler = scheduler;
        this.millis = timeout.toMillis();
    }

    @Override
    public void onOpened(Connection connection) {
        if (connection instanceof HttpConnection http) {
            scheduler.schedule(new Check(http), millis, TimeUnit.MILLISECONDS);
        }
    }

    @Override
    public void onClosed(Connection connection) {
        // the next check sees the closed end point and stops rescheduling
    }

    /** One connection's look, rescheduled while the connection is open. */
    private final class Check implements Runnable {
        private final HttpConnection connection;
        private long messagesAtLastLook = -1;
        private boolean midHeaderAtLastLook;

        Check(HttpConnection connection) {
            this.connection = connection;
        }

        @Override
        public void run() {
            if (!connection.getEndPoint().isOpen()) {
                return;
            }
            long messages = connection.getMessagesIn();
            boolean midHeader = connection.getParser().inHeaderState() && !connection.getParser().isStart();
            boolean firstLook = messagesAtLastLook < 0;
            boolean stalled = (firstLook && messages == 0)
                    || (midHeader && midHeaderAtLastLook && messages == messagesAtLastLook);
            if (stalled) {
                LOG.debug("closing {}: request headers not complete within {} ms", connection.getEndPoint()
                        .getRemoteSocketAddress(), millis);
                connection.getEndPoint().close();
                return;
            }
            messagesAtLastLook = messages;
            midHeaderAtLastLook = midHeader;
            scheduler.schedule(this, millis, TimeUnit.MILLISECONDS);
        }
    }
}
