package dev.cairn.kit.sink;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/** Test records with text keys and values. */
final class Records {

    private Records() {
    }

    static SinkRecord record(String key, String value) {
        return new SinkRecord(key == null ? null : key.getBytes(StandardCharsets.UTF_8),
                value == null ? null : value.getBytes(StandardCharsets.UTF_8));
    }

    /** Records whose key and value are both the given text. */
    static List<SinkRecord> records(String... keysAndValues) {
        return Arrays.stream(keysAndValues).map(text -> record(text, text)).toList();
    }

    static Epoch epoch(long checkpointId, String... keysAndValues) {
        return new Epoch(checkpointId, records(keysAndValues));
    }
}
