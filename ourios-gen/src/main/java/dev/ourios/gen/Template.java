package dev.ourios.gen;

import dev.ourios.core.Param;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A log-line template as a miner would have found it: literal text around typed parameter slots. A row's
 * {@code separators} are the literal segments (so {@code separators.size() == params.size() + 1}) and the line is
 * {@code sep0 + param0 + sep1 + … + sepN}, which {@link #render} does.
 *
 * @param slots       one per parameter: the {@link Param} type tag and the vocabulary that fills it
 * @param literals    the literal segments, shared by every row of the template (they are never mutated)
 * @param attributeCount how many of the service's log-attribute keys rows of this template carry
 */
public record Template(long id, String pattern, List<Slot> slots, List<byte[]> literals, int attributeCount) {
    private static final Pattern SLOT = Pattern.compile("\\{(IP|UUID|NUM|HEX|TS|PATH|STR)(?::([a-z]+))?}");

    /** A parameter slot: its type tag (0 IP … 6 STR) and the vocabulary kind that fills it. */
    public record Slot(int typeTag, String kind) {
    }

    public Template {
        slots = List.copyOf(slots);
        literals = List.copyOf(literals);
        if (literals.size() != slots.size() + 1) {
            throw new IllegalArgumentException("a template has one more literal than slots: " + pattern);
        }
    }

    /** Parses {@code "Tracking ID Created: {UUID}"}; a slot is {@code {TAG}} or {@code {TAG:kind}}. */
    public static Template parse(long id, String pattern, int attributeCount) {
        List<Slot> slots = new ArrayList<>();
        List<byte[]> literals = new ArrayList<>();
        Matcher m = SLOT.matcher(pattern);
        int last = 0;
        while (m.find()) {
            literals.add(pattern.substring(last, m.start()).getBytes(StandardCharsets.UTF_8));
            int tag = List.of("IP", "UUID", "NUM", "HEX", "TS", "PATH", "STR").indexOf(m.group(1));
            slots.add(new Slot(tag, m.group(2) == null ? m.group(1).toLowerCase() : m.group(2)));
            last = m.end();
        }
        literals.add(pattern.substring(last).getBytes(StandardCharsets.UTF_8));
        return new Template(id, pattern, slots, literals, attributeCount);
    }

    /** Rebuilds a line from separators and params, the way a reader reconstructs a clean row. */
    public static byte[] render(List<byte[]> separators, List<Param> params) {
        if (separators.size() != params.size() + 1) {
            throw new IllegalArgumentException("need params + 1 separators, got " + separators.size() + " for "
                    + params.size());
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(128);
        for (int i = 0; i < params.size(); i++) {
            out.writeBytes(separators.get(i));
            if (params.get(i).value() != null) {
                out.writeBytes(params.get(i).value());
            }
        }
        out.writeBytes(separators.get(params.size()));
        return out.toByteArray();
    }
}
