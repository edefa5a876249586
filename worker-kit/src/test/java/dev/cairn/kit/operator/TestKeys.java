package dev.cairn.kit.operator;

import dev.cairn.sidecar.hook.KeyGroupRange;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * The keyed state the restore tests of an operator write and expect back: {@link #KEYS} keys {@code key-i}, each with
 * the count {@code vi}, over {@link #MAX} key groups.
 */
final class TestKeys {

    /** How many keys there are. */
    static final int KEYS = 1_000;
    /** The max parallelism: the key groups the keys fall in. */
    static final int MAX = 128;

    private TestKeys() {
    }

    /** {@code text} in UTF-8. */
    static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    /** Every key of {@code range}, with its count. */
    static Map<KeyedState.Key, byte[]> keysOf(KeyGroupRange range) {
        return keysWhere(key -> range.contains(KeyGroups.of(key, MAX)));
    }

    /** Every key {@code held} accepts, with its count. */
    static Map<KeyedState.Key, byte[]> keysWhere(Predicate<byte[]> held) {
        Map<KeyedState.Key, byte[]> keys = new TreeMap<>();
        for (int i = 0; i < KEYS; i++) {
            byte[] key = bytes("key-" + i);
            if (held.test(key)) {
                keys.put(new KeyedState.Key(key), bytes("v" + i));
            }
        }
        return keys;
    }
}
