package dev.cairn.kit.sink;

import dev.cairn.kit.TopicContents;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Reads a whole topic, committed records only or everything, as the sink's downstream readers would. */
final class OutputReader {

    private final String bootstrapServers;

    OutputReader(String bootstrapServers) {
        this.bootstrapServers = bootstrapServers;
    }

    /** The values of every record of {@code topic} up to its current end. */
    List<String> values(String topic, boolean readCommitted) {
        return TopicContents.read(bootstrapServers, topic, readCommitted).stream()
                .map(record -> text(record.value())).toList();
    }

    /** The latest committed marker value per key on {@code <output>.commits}. */
    Map<String, String> markers(String output) {
        Map<String, String> markers = new HashMap<>();
        TopicContents.read(bootstrapServers, output + ".commits", true)
                .forEach(record -> markers.put(text(record.key()), text(record.value())));
        return markers;
    }

    private static String text(byte[] bytes) {
        return bytes == null ? null : new String(bytes, StandardCharsets.UTF_8);
    }
}
