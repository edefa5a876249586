package dev.cairn.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.cairn.client.Json;
import java.io.PrintWriter;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/** Writes the audit's results: JSON (snake_case, as the REST API), CSV (RFC 4180 quoting) and times in text. */
final class AuditOutput {

    private AuditOutput() {
    }

    /** {@code value} as indented JSON, one document. */
    static void json(PrintWriter out, Object value) {
        try {
            out.println(Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(value));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write " + value.getClass().getSimpleName() + " as JSON", e);
        }
        out.flush();
    }

    /** A header line and one line per row. */
    static void csv(PrintWriter out, List<String> header, List<List<Object>> rows) {
        out.println(csvLine(new ArrayList<>(header)));
        rows.forEach(row -> out.println(csvLine(row)));
        out.flush();
    }

    static String csvLine(List<?> fields) {
        StringBuilder line = new StringBuilder();
        for (int i = 0; i < fields.size(); i++) {
            if (i > 0) {
                line.append(',');
            }
            Object field = fields.get(i);
            String text = field == null ? "" : field.toString();
            if (text.indexOf(',') >= 0 || text.indexOf('"') >= 0 || text.indexOf('\n') >= 0
                    || text.indexOf('\r') >= 0) {
                line.append('"').append(text.replace("\"", "\"\"")).append('"');
            } else {
                line.append(text);
            }
        }
        return line.toString();
    }

    /** A nested document as (path, value) rows: {@code counts.completed,5}, {@code history[0].id,7}. */
    static List<List<Object>> flatten(Object value) {
        List<List<Object>> rows = new ArrayList<>();
        flatten("", Json.MAPPER.valueToTree(value), rows);
        return rows;
    }

    private static void flatten(String path, JsonNode node, List<List<Object>> rows) {
        if (node.isObject()) {
            Iterator<Map.Entry<String, JsonNode>> fields = node.fields();
            while (fields.hasNext()) {
                Map.Entry<String, JsonNode> field = fields.next();
                flatten(path.isEmpty() ? field.getKey() : path + "." + field.getKey(), field.getValue(), rows);
            }
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                flatten(path + "[" + i + "]", node.get(i), rows);
            }
        } else {
            rows.add(List.of(path, node.isNull() ? "" : node.asText()));
        }
    }

    /** An epoch-millisecond time as ISO-8601 UTC, {@code -} for none. */
    static String time(Long epochMs) {
        return epochMs == null ? "-" : Instant.ofEpochMilli(epochMs).toString();
    }
}
