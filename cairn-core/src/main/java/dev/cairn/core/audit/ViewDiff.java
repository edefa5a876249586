package dev.cairn.core.audit;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Names every difference between two JSON documents (pure): objects field by field, arrays of checkpoints by their
 * {@code id} (so one extra checkpoint is one difference, not a shifted list), other arrays element by element.
 * A path reads like {@code counts.completed} or {@code history[id=5].status}.
 */
public final class ViewDiff {

    /**
     * One difference.
     *
     * @param path where, e.g. {@code history[id=5].status}
     * @param journal the replayed value (JSON), {@code "(absent)"} when the replay has none
     * @param live the live value (JSON), {@code "(absent)"} when the live view has none
     */
    public record Difference(String path, String journal, String live) {}

    public static final String ABSENT = "(absent)";

    private ViewDiff() {
    }

    /** Every difference between the replayed and the live document, in document order. */
    public static List<Difference> of(JsonNode journal, JsonNode live) {
        List<Difference> differences = new ArrayList<>();
        compare("", journal, live, differences);
        return differences;
    }

    private static void compare(String path, JsonNode journal, JsonNode live, List<Difference> out) {
        if (missing(journal) || missing(live)) {
            if (!(missing(journal) && missing(live))) {
                out.add(new Difference(path, text(journal), text(live)));
            }
        } else if (journal.isObject() && live.isObject()) {
            Set<String> names = new LinkedHashSet<>();
            journal.fieldNames().forEachRemaining(names::add);
            live.fieldNames().forEachRemaining(names::add);
            for (String name : names) {
                compare(path.isEmpty() ? name : path + "." + name, journal.get(name), live.get(name), out);
            }
        } else if (journal.isArray() && live.isArray()) {
            compareArrays(path, journal, live, out);
        } else if (!journal.equals(live) && !(journal.isNumber() && live.isNumber()
                && journal.decimalValue().compareTo(live.decimalValue()) == 0)) {
            out.add(new Difference(path, text(journal), text(live)));
        }
    }

    /** Arrays of objects with ids are compared by id (and their order of ids), others element by element. */
    private static void compareArrays(String path, JsonNode journal, JsonNode live, List<Difference> out) {
        if (!(byId(journal) && byId(live))) {
            for (int i = 0; i < Math.max(journal.size(), live.size()); i++) {
                compare(path + "[" + i + "]", journal.get(i), live.get(i), out);
            }
            return;
        }
        Map<String, JsonNode> left = index(journal);
        Map<String, JsonNode> right = index(live);
        Set<String> ids = new LinkedHashSet<>(left.keySet());
        ids.addAll(right.keySet());
        for (String id : ids) {
            compare(path + "[id=" + id + "]", left.get(id), right.get(id), out);
        }
        if (left.keySet().equals(right.keySet())
                && !new ArrayList<>(left.keySet()).equals(new ArrayList<>(right.keySet()))) {
            out.add(new Difference(path + " (order of ids)", left.keySet().toString(), right.keySet().toString()));
        }
    }

    private static boolean missing(JsonNode node) {
        return node == null || node.isMissingNode();
    }

    private static String text(JsonNode node) {
        return missing(node) ? ABSENT : node.toString();
    }

    /** Whether every element is an object with an {@code id}. */
    private static boolean byId(JsonNode array) {
        for (JsonNode element : array) {
            if (!element.isObject() || !element.has("id")) {
                return false;
            }
        }
        return true;
    }

    private static Map<String, JsonNode> index(JsonNode array) {
        Map<String, JsonNode> byId = new LinkedHashMap<>();
        Iterator<JsonNode> elements = array.elements();
        while (elements.hasNext()) {
            JsonNode element = elements.next();
            byId.put(element.get("id").asText(), element);
        }
        return byId;
    }
}
