package dev.cairn.coordinator.streams;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.streams.processor.api.RecordMetadata;

/**
 * The input records whose decision Kafka refused to take, so that the coordinator skips them instead of failing
 * on them forever. Under exactly-once a record that cannot be produced leaves the transaction unusable: Kafka
 * Streams aborts it and processes the same input again, which would fail again, and every job of the partition
 * would stop. So when sending fails for a record decided from a known input, {@link DeadLetterQueueHandler} marks
 * that input here and fails the task; the replaced stream thread processes the input again, and
 * {@link CoordinatorProcessor} finds it marked, decides nothing, and dead-letters it with the reason in a clean
 * transaction.
 *
 * <p>One instance per coordinator instance, shared through the Kafka Streams property {@value #CONFIG} (the
 * handler reads it in {@code configure}, the processor in {@code init}). It keeps the newest {@value #MAX_KEPT}
 * marks; a mark is forgotten once its input was skipped. Thread-safe.
 */
public final class UnsendableInputs {

    /** The Kafka Streams property whose value is the instance shared by the handler and the processors. */
    public static final String CONFIG = "cairn.unsendable.inputs";
    static final int MAX_KEPT = 1_000;

    private final Map<String, String> reasons = new LinkedHashMap<>() {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, String> eldest) {
            return size() > MAX_KEPT;
        }
    };

    private final ThreadLocal<RecordMetadata> processing = new ThreadLocal<>();
    /** Whether any input is marked: the check every record makes, without a lock or an allocation. */
    private volatile boolean anyMarked;

    /** The instance given as {@value #CONFIG} in {@code configs}, or a new one when none is given. */
    static UnsendableInputs from(Map<String, ?> configs) {
        Object given = configs.get(CONFIG);
        if (given != null && !(given instanceof UnsendableInputs)) {
            throw new IllegalArgumentException(CONFIG + " must be an UnsendableInputs, not a "
                    + given.getClass().getName());
        }
        return given == null ? new UnsendableInputs() : (UnsendableInputs) given;
    }

    /** Marks the input at {@code offset} of {@code topic}-{@code partition}: what it decided could not be sent. */
    public synchronized void mark(String topic, int partition, long offset, String reason) {
        reasons.put(position(topic, partition, offset), reason);
        anyMarked = true;
    }

    /**
     * Marks the input the calling stream thread is processing, if any: a store's changelog record is sent without
     * the position of the input that changed the store, but within its processing, on its thread.
     *
     * @return whether an input was marked
     */
    boolean markCurrent(String reason) {
        RecordMetadata input = processing.get();
        if (input == null) {
            return false;
        }
        mark(input.topic(), input.partition(), input.offset(), reason);
        return true;
    }

    /** The calling thread processes {@code input} until {@link #processed()}. */
    void processing(RecordMetadata input) {
        processing.set(input);
    }

    /** The calling thread finished processing its input. */
    void processed() {
        processing.remove();
    }

    /** Why {@code input} was marked, forgetting the mark; empty when it was not (at no cost while none is). */
    Optional<String> take(RecordMetadata input) {
        if (!anyMarked) {
            return Optional.empty();
        }
        synchronized (this) {
            String reason = reasons.remove(position(input.topic(), input.partition(), input.offset()));
            anyMarked = !reasons.isEmpty();
            return Optional.ofNullable(reason);
        }
    }

    /** How many inputs are marked and not yet skipped. */
    public synchronized int marked() {
        return reasons.size();
    }

    private static String position(String topic, int partition, long offset) {
        return topic + "-" + partition + "@" + offset;
    }
}
