package dev.ourios.server.query;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ourios.query.aggregate.CountsOverTime;
import dev.ourios.query.aggregate.CountsRequest;
import dev.ourios.query.aggregate.GroupField;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Counts over time as JSON: the answer of {@code POST /v1/stats} and the output of {@code ourios stats --json}
 * (cli.md, "Counts over time"). Bucket {@code i} covers {@code [buckets[i], buckets[i] + step)} within the window.
 */
public final class CountsJson {
    private static final ObjectMapper JSON = new ObjectMapper();

    private CountsJson() {
    }

    /** The JSON of counts, shared with {@code ourios stats --json}. */
    public static Map<String, Object> of(CountsRequest r, CountsOverTime.Counts c) throws java.io.IOException {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("from", r.from().toString());
        out.put("to", r.to().toString());
        out.put("step", SearchParams.format(c.step()));
        List<String> times = new ArrayList<>(c.buckets());
        for (int i = 0; i < c.buckets(); i++) {
            times.add(c.origin().plus(c.step().multipliedBy(i)).toString());
        }
        out.put("buckets", times);
        out.put("group_by", r.groupBy().stream().map(GroupField::name).toList());
        List<Map<String, Object>> series = new ArrayList<>();
        for (CountsOverTime.Series s : c.series()) {
            Map<String, Object> o = new LinkedHashMap<>();
            Map<String, Object> group = new LinkedHashMap<>();
            for (int i = 0; i < s.group().size(); i++) {
                group.put(r.groupBy().get(i).name(), s.group().get(i));
            }
            o.put("group", group);
            o.put("other", s.other());
            o.put("total", s.total());
            o.put("counts", s.counts());
            series.add(o);
        }
        out.put("series", series);
        out.put("total", c.total());
        out.put("groups_capped", c.groupsCapped());
        out.put("stats", JSON.readTree(c.stats().toJson()).get("stats"));
        return out;
    }
}
