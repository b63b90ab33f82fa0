package dev.ourios.bench;

import dev.ourios.query.Query;
import dev.ourios.query.QueryEngine;
import dev.ourios.query.QueryStats;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * One query through our engine and through DuckDB in the same JVM, warm: {@code warmups} untimed rounds, then
 * {@code iterations} timed ones, the side that goes first alternating each round so neither always runs on a cache
 * the other warmed. Every row is visited on both sides (ours handed to a sink, DuckDB's result set walked).
 */
final class OursAgainstDuckDb {
    /** The timings of each side, the rows each returned on the last round, and our engine's last statistics. */
    record Timed(Samples ours, Samples duck, long oursRows, long duckRows, QueryStats stats) {
    }

    private OursAgainstDuckDb() {
    }

    static Timed time(QueryEngine engine, Query query, PreparedStatement duck, int warmups, int iterations)
            throws SQLException, java.io.IOException {
        List<Double> oursMs = new ArrayList<>();
        List<Double> duckMs = new ArrayList<>();
        long oursRows = 0;
        long duckRows = 0;
        QueryStats stats = null;
        for (int i = 0; i < warmups + iterations; i++) {
            for (int side = 0; side < 2; side++) {
                boolean oursNow = (side == 0) == (i % 2 == 0);
                long t0 = System.nanoTime();
                if (oursNow) {
                    stats = engine.run(query, r -> { });
                    oursRows = stats.rows();
                } else {
                    duckRows = count(duck);
                }
                double ms = (System.nanoTime() - t0) / 1e6;
                if (i >= warmups) {
                    (oursNow ? oursMs : duckMs).add(ms);
                }
            }
        }
        return new Timed(new Samples(oursMs), new Samples(duckMs), oursRows, duckRows, stats);
    }

    private static long count(PreparedStatement ps) throws SQLException {
        long n = 0;
        try (ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                n++;
            }
        }
        return n;
    }
}
