package dev.ourios.table;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The manifest rules of STORAGE.md §3, checked on every read and before every write. A violation is a
 * {@link ManifestException} naming the manifest and the problem; nothing is ever dropped or repaired, because a
 * "repaired" manifest could make rows vanish or appear twice.
 */
public final class ManifestValidator {
    private ManifestValidator() {
    }

    public static void validate(String manifestKey, Manifest m) throws ManifestException {
        long named = ManifestKeys.generationOf(manifestKey);
        if (named < 0) {
            throw new ManifestException(manifestKey, "not a canonical manifest name (manifest.<20 digits>.json)");
        }
        if (m.format() != Manifest.FORMAT) {
            throw new ManifestException(manifestKey, "unsupported format " + m.format() + " (this build reads "
                    + Manifest.FORMAT + ")");
        }
        if (m.generation() < 1) {
            // Generation 0 means "no manifest"; a manifest object claiming it would be ambiguous.
            throw new ManifestException(manifestKey, "generation must be at least 1, got " + m.generation());
        }
        if (m.generation() != named) {
            throw new ManifestException(manifestKey, "generation " + m.generation()
                    + " differs from the generation in its name (" + named + ")");
        }
        Set<String> seen = new HashSet<>();
        for (String f : m.files()) {
            checkName(manifestKey, "files", f);
            if (!seen.add(f)) {
                throw new ManifestException(manifestKey, "'" + f + "' appears more than once in files");
            }
        }
        Set<String> retired = new HashSet<>();
        for (Retired r : m.retired()) {
            checkName(manifestKey, "retired", r.file());
            if (seen.contains(r.file())) {
                throw new ManifestException(manifestKey, "'" + r.file() + "' is in both files and retired");
            }
            if (!retired.add(r.file())) {
                throw new ManifestException(manifestKey, "'" + r.file() + "' appears more than once in retired");
            }
        }
        Set<String> main = new HashSet<>();
        for (String f : m.main()) {
            checkName(manifestKey, "main", f);
            if (!main.add(f)) {
                throw new ManifestException(manifestKey, "'" + f + "' appears more than once in main");
            }
            if (!seen.contains(f)) {
                throw new ManifestException(manifestKey, "'" + f + "' is in main but not in files");
            }
        }
        if (main.size() == 1) {
            throw new ManifestException(manifestKey, "main names one file; it names the main files when they are "
                    + "several");
        }
        if (m.commit() != null) {
            validateCommit(manifestKey, m.commit());
        }
        validateCovers(manifestKey, m);
    }

    /** A day manifest's covers (STORAGE.md §4.15): only in a day partition, hours ascending, names sound. */
    private static void validateCovers(String manifestKey, Manifest m) throws ManifestException {
        if (m.covers().isEmpty()) {
            return;
        }
        if (!DayPartition.isInDayPartition(manifestKey)) {
            throw new ManifestException(manifestKey, "covers is only allowed in a day partition's manifest (…/day=DD/"
                    + DayPartition.DIRECTORY + "/)");
        }
        int previous = -1;
        for (Cover c : m.covers()) {
            if (c.hour() < 0 || c.hour() > 23) {
                throw new ManifestException(manifestKey, "covers: hour " + c.hour() + " is not 00 to 23");
            }
            if (c.hour() <= previous) {
                throw new ManifestException(manifestKey, "covers: hour " + c.hourLabel()
                        + " is not after the hour before it (covers are sorted by hour, each hour once)");
            }
            previous = c.hour();
            if (c.generation() < 0 || c.rows() < 0) {
                throw new ManifestException(manifestKey, "covers: hour " + c.hourLabel()
                        + " has a negative generation or row count");
            }
            Set<String> names = new HashSet<>();
            for (String name : c.names()) {
                checkName(manifestKey, "covers[" + c.hourLabel() + "].names", name);
                if (!names.add(name)) {
                    throw new ManifestException(manifestKey, "'" + name + "' appears more than once in the names of "
                            + "the cover of hour " + c.hourLabel());
                }
            }
            if (c.services().isPresent()) {
                validateServices(manifestKey, c, c.services().get());
            }
        }
    }

    /**
     * A cover's rows per service: sorted (the rows without a service first, then by UTF-8 bytes), each service once,
     * none empty, adding up to the cover's rows.
     */
    private static void validateServices(String manifestKey, Cover c, List<ServiceRows> services)
            throws ManifestException {
        long sum = 0;
        ServiceRows previous = null;
        for (ServiceRows s : services) {
            String named = s.service().map(n -> "service '" + n + "'").orElse("the rows without a service");
            if (s.rows() < 1) {
                throw new ManifestException(manifestKey, "covers: hour " + c.hourLabel() + ": " + named + " has "
                        + s.rows() + " rows; an entry counts at least one row");
            }
            if (previous != null && ServiceRows.ORDER.compare(previous, s) >= 0) {
                throw new ManifestException(manifestKey, "covers: hour " + c.hourLabel() + ": " + named + (ServiceRows
                        .ORDER.compare(previous, s) == 0 ? " appears more than once in services"
                        : " is out of order in services (sorted by service, the rows without one first)"));
            }
            previous = s;
            try {
                sum = Math.addExact(sum, s.rows());
            } catch (ArithmeticException e) {
                sum = Long.MAX_VALUE;
            }
        }
        if (sum != c.rows()) {
            throw new ManifestException(manifestKey, "covers: hour " + c.hourLabel() + ": services add up to " + sum
                    + " rows, the cover has " + c.rows());
        }
    }

    /** The fields a commit record carries are checked; a missing one is allowed (STORAGE.md §3). */
    private static void validateCommit(String manifestKey, RecordedCommit c) throws ManifestException {
        Set<String> outputs = new HashSet<>();
        List<String> written = c.outputs().orElse(List.of());
        String field = written.size() == 1 ? "commit.output" : "commit.outputs";
        for (String out : written) {
            checkName(manifestKey, field, out);
            if (!outputs.add(out)) {
                throw new ManifestException(manifestKey, "'" + out + "' appears more than once in commit.outputs");
            }
        }
        Set<String> inputs = new HashSet<>();
        for (String in : c.inputs().orElse(List.of())) {
            checkName(manifestKey, "commit.inputs", in);
            if (!inputs.add(in)) {
                throw new ManifestException(manifestKey, "'" + in + "' appears more than once in commit.inputs");
            }
        }
        if (c.rows().orElse(0) < 0 || c.bytesIn().orElse(0) < 0 || c.bytesOut().orElse(0) < 0
                || c.rowsRemoved().orElse(0) < 0) {
            throw new ManifestException(manifestKey, "commit counts must not be negative");
        }
    }

    /** The problem with a file name, or null when it is one path component ending in {@code .parquet}. */
    public static String nameProblem(String name) {
        if (name == null || name.isEmpty()) {
            return "empty file name";
        }
        if (name.equals(".") || name.equals("..")) {
            return "'" + name + "' is not a file name";
        }
        if (name.indexOf('/') >= 0 || name.indexOf('\\') >= 0) {
            return "'" + name + "' is not a single path component";
        }
        if (name.indexOf('\0') >= 0) {
            return "file name contains NUL: '" + name.replace("\0", "\\0") + "'";
        }
        if (!name.endsWith(".parquet") || name.equals(".parquet")) {
            return "'" + name + "' does not end in .parquet";
        }
        return null;
    }

    private static void checkName(String manifestKey, String field, String name) throws ManifestException {
        String problem = nameProblem(name);
        if (problem != null) {
            throw new ManifestException(manifestKey, field + ": " + problem);
        }
    }
}
