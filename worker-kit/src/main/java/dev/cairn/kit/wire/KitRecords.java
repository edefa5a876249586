package dev.cairn.kit.wire;

import dev.cairn.kit.align.Alignment;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;

/**
 * Writes and reads the records tasks exchange through kit topics (keys and values are bytes).
 *
 * <ul>
 *   <li>data: the task's key and value, headers {@value #FROM} (the writing subtask's index, decimal text) and
 *       {@value #GEN} (its generation: a number that grows with every incarnation of the subtask);</li>
 *   <li>barrier: null key, empty value, headers {@value #BARRIER} (the checkpoint id), {@value #FROM}, {@value #GEN},
 *       and {@value #ALIGN} {@code at-least-once} when the checkpoint does not align (absent: exactly-once). A source
 *       writes one into every partition of each output topic when it takes its snapshot;</li>
 *   <li>resume: null key, empty value, headers {@value #RESUME} (the checkpoint the incarnation restored from,
 *       -1 for a fresh start), {@value #FROM} and {@value #GEN} (the incarnation's generation). Every incarnation
 *       writes one into every partition before any data.</li>
 * </ul>
 *
 * <p>{@link #read} never throws: a record with a missing, repeated (with different values) or unparsable kit
 * header, a barrier or resume record with a payload, or both a barrier and a resume header, is
 * {@link KitRecord.Malformed} with the reason. Decimal header values are ASCII digits with an optional minus sign.
 */
public final class KitRecords {

    /** The writing subtask's index. */
    public static final String FROM = "cairn.kit.from";
    /** The writing subtask's generation. */
    public static final String GEN = "cairn.kit.gen";
    /** A barrier's checkpoint id. */
    public static final String BARRIER = "cairn.kit.barrier";
    /** A resume record's restored checkpoint id. */
    public static final String RESUME = "cairn.kit.resume";
    /** A barrier's alignment, when it is not exactly-once. */
    public static final String ALIGN = "cairn.kit.align";
    /** The {@value #ALIGN} value of an at-least-once barrier. */
    public static final String AT_LEAST_ONCE = "at-least-once";

    private static final byte[] EMPTY = new byte[0];
    private static final int MAX_QUOTED = 40;
    /** Compiled once: every header of every record read goes through it. */
    private static final Pattern DECIMAL = Pattern.compile("-?[0-9]{1,19}");

    private KitRecords() {
    }

    /** A data record of subtask {@code from}, generation {@code generation}, for {@code partition} of {@code topic}. */
    public static ProducerRecord<byte[], byte[]> data(String topic, int partition, byte[] key, byte[] value, int from,
            long generation) {
        return new ProducerRecord<>(topic, partition, key, value, origin(from, generation));
    }

    /** Barrier {@code checkpointId} of subtask {@code from}, generation {@code generation}, for one partition. */
    public static ProducerRecord<byte[], byte[]> barrier(String topic, int partition, long checkpointId, int from,
            long generation, Alignment alignment) {
        Headers headers = origin(from, generation).add(BARRIER, decimal(checkpointId));
        if (alignment == Alignment.AT_LEAST_ONCE) {
            headers.add(ALIGN, AT_LEAST_ONCE.getBytes(StandardCharsets.UTF_8));
        }
        return new ProducerRecord<>(topic, partition, (byte[]) null, EMPTY, headers);
    }

    /** Barrier {@code checkpointId} for every partition of {@code topic} ({@code partitions} of them), in order. */
    public static List<ProducerRecord<byte[], byte[]>> barriers(String topic, int partitions, long checkpointId,
            int from, long generation, Alignment alignment) {
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>(partitions);
        for (int partition = 0; partition < partitions; partition++) {
            records.add(barrier(topic, partition, checkpointId, from, generation, alignment));
        }
        return records;
    }

    /**
     * The resume record of subtask {@code from}'s incarnation of generation {@code generation}, restored from
     * checkpoint {@code restoredFrom} (-1: a fresh start), for one partition.
     */
    public static ProducerRecord<byte[], byte[]> resume(String topic, int partition, long restoredFrom,
            long generation, int from) {
        if (restoredFrom < -1) {
            throw new IllegalArgumentException("a restored checkpoint id is -1 (none) or more, was " + restoredFrom);
        }
        Headers headers = origin(from, generation).add(RESUME, decimal(restoredFrom));
        return new ProducerRecord<>(topic, partition, (byte[]) null, EMPTY, headers);
    }

    /** The resume record for every partition of {@code topic} ({@code partitions} of them), in order. */
    public static List<ProducerRecord<byte[], byte[]>> resumes(String topic, int partitions, long restoredFrom,
            long generation, int from) {
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>(partitions);
        for (int partition = 0; partition < partitions; partition++) {
            records.add(resume(topic, partition, restoredFrom, generation, from));
        }
        return records;
    }

    /** What {@code record} is; {@link KitRecord.Malformed} (never an exception) when its kit headers are wrong. */
    public static KitRecord read(ConsumerRecord<byte[], byte[]> record) {
        KitRecord kind = read(record.headers());
        boolean control = kind instanceof KitRecord.Barrier || kind instanceof KitRecord.Resume;
        if (control && (record.key() != null || record.value() != null && record.value().length > 0)) {
            return new KitRecord.Malformed("a " + (kind instanceof KitRecord.Barrier ? "barrier" : "resume record")
                    + " carries a key or a value");
        }
        return kind;
    }

    /** What a record with {@code headers} is (its key and value unchecked). */
    public static KitRecord read(Headers headers) {
        try {
            int from = (int) number(headers, FROM, 0, Integer.MAX_VALUE);
            long generation = number(headers, GEN, -1, Long.MAX_VALUE);
            Long barrier = optionalNumber(headers, BARRIER, 0);
            Long resume = optionalNumber(headers, RESUME, -1);
            if (barrier != null && resume != null) {
                return new KitRecord.Malformed("both " + BARRIER + " and " + RESUME + " headers");
            }
            if (barrier != null) {
                return new KitRecord.Barrier(barrier, from, generation, alignment(headers));
            }
            if (resume != null) {
                return new KitRecord.Resume(from, generation, resume);
            }
            if (value(headers, ALIGN) != null) {
                return new KitRecord.Malformed("a data record with a " + ALIGN + " header");
            }
            return new KitRecord.Data(from, generation);
        } catch (MalformedHeader malformed) {
            return new KitRecord.Malformed(malformed.getMessage());
        }
    }

    private static Headers origin(int from, long generation) {
        if (from < 0 || generation < -1) {
            throw new IllegalArgumentException("a subtask index is 0 or more and a generation -1 or more, were "
                    + from + " and " + generation);
        }
        return new RecordHeaders().add(FROM, decimal(from)).add(GEN, decimal(generation));
    }

    private static byte[] decimal(long number) {
        return Long.toString(number).getBytes(StandardCharsets.US_ASCII);
    }

    private static Alignment alignment(Headers headers) {
        String text = value(headers, ALIGN);
        if (text == null) {
            return Alignment.EXACTLY_ONCE;
        }
        if (text.equals(AT_LEAST_ONCE)) {
            return Alignment.AT_LEAST_ONCE;
        }
        throw new MalformedHeader(ALIGN + " is " + quote(text) + ", not " + AT_LEAST_ONCE);
    }

    private static Long optionalNumber(Headers headers, String key, long min) {
        return value(headers, key) == null ? null : number(headers, key, min, Long.MAX_VALUE);
    }

    private static long number(Headers headers, String key, long min, long max) {
        String text = value(headers, key);
        if (text == null) {
            throw new MalformedHeader("no " + key + " header");
        }
        if (!DECIMAL.matcher(text).matches()) {
            throw new MalformedHeader(key + " is " + quote(text) + ", not a decimal number");
        }
        try {
            long number = Long.parseLong(text);
            if (number < min || number > max) {
                throw new MalformedHeader(key + " is " + number + ", not within " + min + " and " + max);
            }
            return number;
        } catch (NumberFormatException tooLarge) {
            throw new MalformedHeader(key + " is " + quote(text) + ", out of range");
        }
    }

    /** The header's value as text; {@code null} when absent; malformed when repeated with different values. */
    private static String value(Headers headers, String key) {
        byte[] value = null;
        for (Header header : headers.headers(key)) {
            byte[] next = header.value() == null ? EMPTY : header.value();
            if (value != null && !Arrays.equals(value, next)) {
                throw new MalformedHeader(key + " appears twice with different values");
            }
            value = next;
        }
        return value == null ? null : new String(value, StandardCharsets.UTF_8);
    }

    private static String quote(String text) {
        String shown = text.length() > MAX_QUOTED ? text.substring(0, MAX_QUOTED) + "..." : text;
        return "'" + shown.replaceAll("\\p{Cntrl}", "?") + "'";
    }

    /** A kit header that is missing or wrong; caught in {@link #read(Headers)}. */
    private static final class MalformedHeader extends RuntimeException {
        MalformedHeader(String message) {
            super(message, null, false, false);
        }
    }
}
