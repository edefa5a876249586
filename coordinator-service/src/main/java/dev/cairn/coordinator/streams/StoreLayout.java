package dev.cairn.coordinator.streams;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * The layout of a stream task's stores, and the input positions its journal reflects, kept in the task's timer
 * index ({@value CoordinatorStores#TIMERS}) under keys due at {@link #NEVER}, which the punctuator never reaches:
 * so the stores and the topology are those of 0.1.0, and instances of 0.1.0 and of this release can share an
 * application during a rolling restart.
 *
 * <ul>
 *   <li>{@value #LAYOUT_KEY}: the layout version the stores were written in. A release that changes how a store is
 *       keyed or encoded, or adds or removes a store, raises {@link #CURRENT}; stores of another version (or of none:
 *       a release before versions were recorded, or no stores at all) are rebuilt from the journal
 *       ({@link StoreRebuild}).</li>
 *   <li>{@value #INPUT_PREFIX}{@code <topic>}: the offset, in the task's partition of that input topic, of the
 *       newest input the journal holds a decision on, as of the last rebuild. Inputs at or below it are skipped:
 *       they matter when an application starts reading its inputs from the beginning over an existing journal
 *       (a new application id).</li>
 * </ul>
 *
 * <p>Every journal record decided on an input carries where that input was, in the headers {@value #INPUT_TOPIC}
 * and {@value #INPUT_OFFSET} (decimal); the partition is the record's own. Records of timers carry neither.
 */
public final class StoreLayout {

    /**
     * The layout this release writes. 1: that of 0.1.0, the first release, of 0.2.0, which first records it, and of
     * 0.3.0, whose stores are 0.2.0's byte for byte. 2: the savepoints store ({@code cairn-savepoints}), the shared
     * state store ({@code cairn-shared}), the removed jobs' store ({@code cairn-removed}), and a stop-with-savepoint's
     * savepoint among the retained checkpoints, so stores of layout 1 are rebuilt from the journal.
     */
    public static final long CURRENT = 2;
    /** The due time of the bookkeeping entries in the timer index: never due. */
    static final long NEVER = Long.MAX_VALUE;
    static final String LAYOUT_KEY = "layout";
    static final String INPUT_PREFIX = "input ";
    static final String INPUT_TOPIC = "cairn.input.topic";
    static final String INPUT_OFFSET = "cairn.input.offset";

    /** Where an input record was: its topic and offset (in the partition of the record that names it). */
    record Input(String topic, long offset) {
    }

    private StoreLayout() {
    }

    /** The layout the task's stores record, if any. */
    static Optional<Long> recorded(ReadOnlyKeyValueStore<Bytes, Bytes> timers) {
        return Optional.ofNullable(timers.get(TimerKeys.timer(NEVER, LAYOUT_KEY))).map(StoreLayout::decode);
    }

    /**
     * Whether a task's stores, as {@code timers} tells, are of this release's layout and whole: not while a rebuild
     * writes them, whose first write removes the layout entry and whose last writes it.
     */
    public static boolean isCurrent(ReadOnlyKeyValueStore<Bytes, Bytes> timers) {
        return recorded(timers).filter(layout -> layout == CURRENT).isPresent();
    }

    /** Why the stores must be rebuilt from the journal, or empty when they are of this release's layout. */
    static Optional<String> rebuildReason(KeyValueStore<Bytes, Bytes> timers) {
        Optional<Long> recorded = recorded(timers);
        if (recorded.isEmpty()) {
            return Optional.of("the stores record no layout: they were written by a release before 0.2.0, or "
                    + "there are none (a new application id, or lost changelogs)");
        }
        if (recorded.get() != CURRENT) {
            return Optional.of("the stores are of layout " + recorded.get() + ", this release writes layout "
                    + CURRENT);
        }
        return Optional.empty();
    }

    /** Records this release's layout and the input positions a rebuild found. */
    static void record(KeyValueStore<Bytes, Bytes> timers, Map<String, Long> inputPositions) {
        inputPositions.forEach((topic, offset) -> timers.put(TimerKeys.timer(NEVER, INPUT_PREFIX + topic),
                encode(offset)));
        timers.put(TimerKeys.timer(NEVER, LAYOUT_KEY), encode(CURRENT));
    }

    /** Records {@code layout} as the stores' layout (tests: stores of another release). */
    static void recordLayout(KeyValueStore<Bytes, Bytes> timers, long layout) {
        timers.put(TimerKeys.timer(NEVER, LAYOUT_KEY), encode(layout));
    }

    /** The input positions the last rebuild recorded, by input topic. */
    static Map<String, Long> inputPositions(KeyValueStore<Bytes, Bytes> timers) {
        Map<String, Long> positions = new HashMap<>();
        try (KeyValueIterator<Bytes, Bytes> it = timers.range(TimerKeys.timer(NEVER, INPUT_PREFIX), null)) {
            while (it.hasNext()) {
                KeyValue<Bytes, Bytes> entry = it.next();
                String name = TimerKeys.timerJob(entry.key);
                if (TimerKeys.timerDueAt(entry.key) == NEVER && name.startsWith(INPUT_PREFIX)) {
                    positions.put(name.substring(INPUT_PREFIX.length()), decode(entry.value));
                }
            }
        }
        return positions;
    }

    private static Bytes encode(long value) {
        return Bytes.wrap(ByteBuffer.allocate(Long.BYTES).putLong(value).array());
    }

    private static long decode(Bytes value) {
        return ByteBuffer.wrap(value.get()).getLong();
    }

    /** The headers of a journal record decided on {@code input}: its topic and offset. */
    static Headers headersOf(RecordMetadata input) {
        RecordHeaders headers = new RecordHeaders();
        headers.add(INPUT_TOPIC, input.topic().getBytes(StandardCharsets.UTF_8));
        headers.add(INPUT_OFFSET, Long.toString(input.offset()).getBytes(StandardCharsets.UTF_8));
        return headers;
    }

    /** The input a journal record was decided on, when its headers name one that parses. */
    static Optional<Input> inputOf(Headers headers) {
        Optional<String> topic = header(headers, INPUT_TOPIC);
        Optional<String> offset = header(headers, INPUT_OFFSET);
        if (topic.isEmpty() || offset.isEmpty()) {
            return Optional.empty();
        }
        try {
            return Optional.of(new Input(topic.get(), Long.parseLong(offset.get())));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    private static Optional<String> header(Headers headers, String name) {
        Header header = headers == null ? null : headers.lastHeader(name);
        return header == null || header.value() == null ? Optional.empty()
                : Optional.of(new String(header.value(), StandardCharsets.UTF_8));
    }
}
