package dev.cairn.coordinator.streams;

import dev.cairn.core.events.Command;
import dev.cairn.events.AckEnvelope;
import dev.cairn.events.RequestEnvelope;
import dev.cairn.events.serde.AvroEventSerde;
import dev.cairn.events.serde.CairnSerdes;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The inputs a stream task took while its stores were rebuilt in the background, in the order they came, until they
 * are decided. They live in the task's timer index ({@value CoordinatorStores#TIMERS}), due at {@link #DUE} (after
 * every timer, before the layout entries of {@link StoreLayout}), named {@value #PREFIX} and a sequence number of 19
 * digits, so that they sort in arrival order and the topology and its stores stay those of earlier releases. Being in
 * a store, they are committed with the offsets of the inputs they hold: a coordinator killed while a rebuild runs
 * finds them again, and decides them once the next rebuild is done.
 *
 * <p>An entry holds where the input was (topic, partition, offset), its record timestamp (format 2; an entry of
 * format 1, written by an earlier release, has none), its key and its envelope, encoded with the current schema; it
 * is read back with every schema version this release reads.
 */
final class RebuildBacklog {

    /** The due time of the entries in the timer index: never reached by a tick, below the layout entries. */
    static final long DUE = StoreLayout.NEVER - 1;
    static final String PREFIX = "backlog ";
    private static final int FORMAT = 2;
    private static final int FORMAT_WITHOUT_TIMESTAMP = 1;
    private static final byte REQUEST = 'R';
    private static final byte ACK = 'A';
    private static final AvroEventSerde<RequestEnvelope> REQUESTS = CairnSerdes.requests();
    private static final AvroEventSerde<AckEnvelope> ACKS = CairnSerdes.acks();

    /**
     * One input taken while the stores were rebuilt: where it was, its key, its envelope and its record timestamp
     * ({@link Command.Delivered#UNKNOWN_TIME} for an entry of an earlier release).
     */
    record Entry(String topic, int partition, long offset, String key, SpecificRecord envelope, long timestampMs)
            implements RecordMetadata {
    }

    private final KeyValueStore<Bytes, Bytes> timers;
    private long head;
    private long next;

    private RebuildBacklog(KeyValueStore<Bytes, Bytes> timers, long head, long next) {
        this.timers = timers;
        this.head = head;
        this.next = next;
    }

    /** The backlog the timer index holds (none after a task that had nothing to catch up with). */
    static RebuildBacklog in(KeyValueStore<Bytes, Bytes> timers) {
        long first = -1;
        long last = -1;
        try (KeyValueIterator<Bytes, Bytes> it = timers.range(key(0), key(Long.MAX_VALUE))) {
            while (it.hasNext()) {
                long sequence = sequenceOf(it.next().key);
                first = first < 0 ? sequence : first;
                last = sequence;
            }
        }
        return first < 0 ? new RebuildBacklog(timers, 0, 0) : new RebuildBacklog(timers, first, last + 1);
    }

    /** Whether {@code key} of the timer index is an entry of a backlog, which a rebuild must not clear. */
    static boolean isEntry(Bytes key) {
        return TimerKeys.timerDueAt(key) == DUE && TimerKeys.timerJob(key).startsWith(PREFIX);
    }

    boolean isEmpty() {
        return head == next;
    }

    /** How many inputs wait. */
    long size() {
        return next - head;
    }

    /**
     * Keeps {@code envelope}, read at {@code input} with {@code key} and the record timestamp {@code timestampMs},
     * after every input kept before it.
     */
    void append(RecordMetadata input, long timestampMs, String key, SpecificRecord envelope) {
        timers.put(key(next), encode(input, timestampMs, key, envelope));
        next++;
    }

    /** Takes the oldest input out of the backlog; empty when there is none. */
    Optional<Entry> take() {
        if (isEmpty()) {
            return Optional.empty();
        }
        Bytes key = key(head);
        Bytes value = timers.get(key);
        timers.delete(key);
        head++;
        return Optional.of(decode(value));
    }

    private static Bytes key(long sequence) {
        return TimerKeys.timer(DUE, PREFIX + String.format("%019d", sequence));
    }

    private static long sequenceOf(Bytes key) {
        return Long.parseLong(TimerKeys.timerJob(key).substring(PREFIX.length()));
    }

    private static Bytes encode(RecordMetadata input, long timestampMs, String key, SpecificRecord envelope) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(FORMAT);
            out.writeUTF(input.topic());
            out.writeInt(input.partition());
            out.writeLong(input.offset());
            out.writeLong(timestampMs);
            byte[] keyBytes = key == null ? null : key.getBytes(StandardCharsets.UTF_8);
            out.writeInt(keyBytes == null ? -1 : keyBytes.length);
            if (keyBytes != null) {
                out.write(keyBytes);
            }
            if (envelope instanceof RequestEnvelope request) {
                out.writeByte(REQUEST);
                out.write(REQUESTS.serialize(input.topic(), request));
            } else if (envelope instanceof AckEnvelope ack) {
                out.writeByte(ACK);
                out.write(ACKS.serialize(input.topic(), ack));
            } else {
                throw new IllegalArgumentException("not a Cairn request or ack: " + envelope);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return Bytes.wrap(bytes.toByteArray());
    }

    private static Entry decode(Bytes value) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(value.get()))) {
            int format = in.readUnsignedByte();
            if (format != FORMAT && format != FORMAT_WITHOUT_TIMESTAMP) {
                throw new IllegalStateException("a backlog entry of format " + format + ", this release reads "
                        + FORMAT_WITHOUT_TIMESTAMP + " and " + FORMAT);
            }
            String topic = in.readUTF();
            int partition = in.readInt();
            long offset = in.readLong();
            long timestampMs = format == FORMAT ? in.readLong() : Command.Delivered.UNKNOWN_TIME;
            int keyLength = in.readInt();
            String key = keyLength < 0 ? null : new String(in.readNBytes(keyLength), StandardCharsets.UTF_8);
            byte kind = in.readByte();
            byte[] envelope = in.readAllBytes();
            SpecificRecord decoded = kind == REQUEST ? REQUESTS.deserialize(topic, envelope)
                    : ACKS.deserialize(topic, envelope);
            return new Entry(topic, partition, offset, key, decoded, timestampMs);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The kept input's key as its record had it (UTF-8), for a dead letter. */
    static byte[] keyBytes(Entry entry) {
        return entry.key() == null ? null : entry.key().getBytes(StandardCharsets.UTF_8);
    }

    /** The kept input's envelope, encoded with the current schema (not its original bytes), for a dead letter. */
    static byte[] envelopeBytes(Entry entry) {
        return entry.envelope() instanceof RequestEnvelope request ? REQUESTS.serialize(entry.topic(), request)
                : ACKS.serialize(entry.topic(), (AckEnvelope) entry.envelope());
    }

    /** Every kept input, oldest first, without taking them (tests). */
    static List<Entry> entries(KeyValueStore<Bytes, Bytes> timers) {
        List<Entry> entries = new ArrayList<>();
        try (KeyValueIterator<Bytes, Bytes> it = timers.range(key(0), key(Long.MAX_VALUE))) {
            it.forEachRemaining(e -> entries.add(decode(e.value)));
        }
        return entries;
    }
}
