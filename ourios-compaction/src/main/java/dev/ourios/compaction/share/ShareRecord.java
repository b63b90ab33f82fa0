package dev.ourios.compaction.share;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ourios.compaction.plan.CompactionPlan;
import dev.ourios.core.FileNames;
import dev.ourios.store.ObjectInfo;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;

/**
 * What one compactor process wrote of a shared rewrite (docs/spec/storage.md, "Sharing one rewrite between compactor
 * processes"): its group of the plan's shares, the rows it read and kept, the checksum of the rows kept (which it
 * verified equal to that of the rows written) and its files in share order. Published create-only as
 * {@code share.<plan id>.<group>.<uuidv7>.json} in the hour directory after the files.
 *
 * @param plan      the plan id ({@link #planId})
 * @param group     this record's group, 0 ≤ group &lt; groups
 * @param groups    how many groups the rewrite's shares form
 * @param shares    how many shares the rewrite is cut into
 * @param rowsRead  every row of the inputs, which each group reads whole
 * @param rowsKept  the rows of this group's shares
 * @param checksum  the checksum of the rows kept and written (docs/spec/storage.md 4.3)
 * @param outputs   the group's files, in share order
 */
public record ShareRecord(String plan, int group, int groups, int shares, long rowsRead, long rowsKept,
        String checksum, List<Output> outputs) {
    /** The largest record read: 64 shares' files are a few KiB; anything larger is not a record of ours. */
    public static final long MAX_BYTES = 1L << 20;
    private static final ObjectMapper JSON = new ObjectMapper();

    /** One file of the group. */
    public record Output(String file, long rows, long bytes, int rowGroups) {
        public Output {
            if (!FileNames.isCompactedFile(file) || rows < 0 || bytes < 0 || rowGroups < 0) {
                throw new IllegalArgumentException("not a share output: " + file + " " + rows + " rows " + bytes
                        + " bytes " + rowGroups + " row groups");
            }
        }
    }

    public ShareRecord {
        Objects.requireNonNull(plan, "plan");
        Objects.requireNonNull(checksum, "checksum");
        outputs = List.copyOf(outputs);
        if (groups < 1 || group < 0 || group >= groups || shares < groups || rowsKept < 0 || rowsKept > rowsRead) {
            throw new IllegalArgumentException("inconsistent share record: group " + group + " of " + groups + ", "
                    + shares + " shares, " + rowsKept + " of " + rowsRead + " rows kept");
        }
    }

    /**
     * The plan id: the first 16 hex digits of SHA-256 over the UTF-8 lines tenant, hour label, base generation,
     * largest file, row-group threshold, {@code groups}, then {@code name size} per input in plan order.
     */
    public static String planId(CompactionPlan plan, int groups) {
        StringBuilder b = new StringBuilder();
        b.append(plan.partition().tenantId()).append('\n').append(plan.partition().hourLabel()).append('\n')
                .append(plan.baseGeneration()).append('\n').append(plan.maxFileBytes()).append('\n')
                .append(plan.rowGroupBytes()).append('\n').append(groups).append('\n');
        for (ObjectInfo in : plan.inputs()) {
            b.append(in.name()).append(' ').append(in.size()).append('\n');
        }
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(b.toString().getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }

    /** The record's object name, with a fresh UUIDv7. */
    public String name(String uuid) {
        return FileNames.shareRecordName(plan, group, uuid);
    }

    /** The plan id a record name carries, or null when {@code name} is not a share record's. */
    public static String planOfName(String name) {
        return FileNames.isShareRecord(name) ? name.split("\\.")[1] : null;
    }

    /** The group a share record's name carries ({@code name} must be one). */
    public static int groupOfName(String name) {
        return Integer.parseInt(name.split("\\.")[2]);
    }

    public byte[] toJson() {
        ObjectNode root = JSON.createObjectNode();
        root.put("format", 1);
        root.put("plan", plan);
        root.put("group", group);
        root.put("groups", groups);
        root.put("shares", shares);
        root.put("rows_read", rowsRead);
        root.put("rows_kept", rowsKept);
        root.put("checksum", checksum);
        ArrayNode files = root.putArray("outputs");
        for (Output o : outputs) {
            files.addObject().put("file", o.file()).put("rows", o.rows()).put("bytes", o.bytes())
                    .put("row_groups", o.rowGroups());
        }
        try {
            return JSON.writeValueAsBytes(root);
        } catch (IOException e) {
            throw new IllegalStateException("BUG: a share record does not serialise", e);
        }
    }

    /** Parses a record; anything but a well-formed record of format 1 is an {@link IllegalArgumentException}. */
    public static ShareRecord parse(byte[] json) {
        JsonNode root;
        try {
            root = JSON.readTree(json);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("not JSON: " + e.getOriginalMessage());
        } catch (IOException e) {
            throw new IllegalArgumentException("not JSON: " + e.getMessage());
        }
        if (root == null || !root.isObject() || root.path("format").asInt(-1) != 1) {
            throw new IllegalArgumentException("not a share record of format 1");
        }
        List<Output> outputs = new ArrayList<>();
        JsonNode files = root.path("outputs");
        if (!files.isArray()) {
            throw new IllegalArgumentException("\"outputs\" is not an array");
        }
        for (JsonNode f : files) {
            outputs.add(new Output(text(f, "file"), number(f, "rows"), number(f, "bytes"),
                    Math.toIntExact(number(f, "row_groups"))));
        }
        return new ShareRecord(text(root, "plan"), Math.toIntExact(number(root, "group")),
                Math.toIntExact(number(root, "groups")), Math.toIntExact(number(root, "shares")),
                number(root, "rows_read"), number(root, "rows_kept"), text(root, "checksum"), outputs);
    }

    private static String text(JsonNode node, String field) {
        JsonNode v = node.get(field);
        if (v == null || !v.isTextual()) {
            throw new IllegalArgumentException("\"" + field + "\" is not a string");
        }
        return v.asText();
    }

    private static long number(JsonNode node, String field) {
        JsonNode v = node.get(field);
        if (v == null || !v.canConvertToLong() || !v.isIntegralNumber()) {
            throw new IllegalArgumentException("\"" + field + "\" is not an integer");
        }
        return v.asLong();
    }
}
