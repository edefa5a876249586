package dev.cairn.kit.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import dev.cairn.kit.align.Alignment;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.junit.jupiter.api.Test;

/** Data, barrier and resume records as written, read back; and what reading makes of wrong kit headers. */
class KitRecordsTest {

    private static final byte[] KEY = "k".getBytes(StandardCharsets.UTF_8);
    private static final byte[] VALUE = "v".getBytes(StandardCharsets.UTF_8);

    @Test
    void shouldReadBackADataRecordWithItsKeyValueAndOrigin() {
        ProducerRecord<byte[], byte[]> written = KitRecords.data("out", 2, KEY, VALUE, 3, 17);

        assertThat(written.partition()).isEqualTo(2);
        assertThat(written.key()).isEqualTo(KEY);
        assertThat(written.value()).isEqualTo(VALUE);
        assertThat(KitRecords.read(consumed(written))).isEqualTo(new KitRecord.Data(3, 17));
    }

    @Test
    void shouldReadBackABarrierWithAnEmptyValueAndNoKey() {
        ProducerRecord<byte[], byte[]> written = KitRecords.barrier("out", 0, 42, 1, -1, Alignment.EXACTLY_ONCE);

        assertThat(written.key()).isNull();
        assertThat(written.value()).isEmpty();
        assertThat(written.headers().lastHeader(KitRecords.ALIGN)).isNull();
        assertThat(KitRecords.read(consumed(written)))
                .isEqualTo(new KitRecord.Barrier(42, 1, -1, Alignment.EXACTLY_ONCE));
    }

    @Test
    void shouldReadBackAnAtLeastOnceBarrier() {
        ProducerRecord<byte[], byte[]> written = KitRecords.barrier("out", 0, 5, 0, 3, Alignment.AT_LEAST_ONCE);

        assertThat(KitRecords.read(consumed(written)))
                .isEqualTo(new KitRecord.Barrier(5, 0, 3, Alignment.AT_LEAST_ONCE));
    }

    @Test
    void shouldWriteABarrierIntoEveryPartition() {
        List<ProducerRecord<byte[], byte[]>> barriers = KitRecords.barriers("out", 3, 9, 2, 4, Alignment.EXACTLY_ONCE);

        assertThat(barriers).extracting(ProducerRecord::partition).containsExactly(0, 1, 2);
        assertThat(barriers).allSatisfy(barrier -> assertThat(KitRecords.read(consumed(barrier)))
                .isEqualTo(new KitRecord.Barrier(9, 2, 4, Alignment.EXACTLY_ONCE)));
    }

    @Test
    void shouldWriteAResumeRecordIntoEveryPartitionWithItsGenerationAndRestoredCheckpoint() {
        List<ProducerRecord<byte[], byte[]>> resumes = KitRecords.resumes("out", 2, 8, 1_700_000_000_000L, 1);

        assertThat(resumes).extracting(ProducerRecord::partition).containsExactly(0, 1);
        assertThat(resumes).allSatisfy(resume -> assertThat(KitRecords.read(consumed(resume)))
                .isEqualTo(new KitRecord.Resume(1, 1_700_000_000_000L, 8)));
    }

    @Test
    void shouldWriteTheResumeOfAFreshStartWithNoRestoredCheckpoint() {
        ProducerRecord<byte[], byte[]> resume = KitRecords.resume("out", 0, -1, 5, 0);

        assertThat(KitRecords.read(consumed(resume))).isEqualTo(new KitRecord.Resume(0, 5, -1));
        assertThatIllegalArgumentException().isThrownBy(() -> KitRecords.resume("out", 0, -2, 5, 0))
                .withMessageContaining("-1 (none) or more");
    }

    @Test
    void shouldRefuseToWriteANegativeSubtaskOrGeneration() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> KitRecords.data("out", 0, KEY, VALUE, -1, 0));
        assertThatIllegalArgumentException()
                .isThrownBy(() -> KitRecords.data("out", 0, KEY, VALUE, 0, -2));
    }

    @Test
    void shouldReportARecordWithoutKitHeadersAsMalformed() {
        assertThat(KitRecords.read(new RecordHeaders())).isEqualTo(new KitRecord.Malformed("no cairn.kit.from header"));
    }

    @Test
    void shouldReportAMissingGenerationAsMalformed() {
        assertThat(KitRecords.read(headers(KitRecords.FROM, "1")))
                .isEqualTo(new KitRecord.Malformed("no cairn.kit.gen header"));
    }

    @Test
    void shouldReportAHeaderThatIsNotADecimalNumberAsMalformed() {
        assertMalformed(headers(KitRecords.FROM, "one", KitRecords.GEN, "0"), "cairn.kit.from is 'one', not a decimal");
        assertMalformed(headers(KitRecords.FROM, "1", KitRecords.GEN, " 2"), "cairn.kit.gen is ' 2', not a decimal");
        assertMalformed(headers(KitRecords.FROM, "1", KitRecords.GEN, "99999999999999999999"), "not a decimal");
        assertMalformed(headers(KitRecords.FROM, "1", KitRecords.GEN, "9999999999999999999"), "out of range");
    }

    @Test
    void shouldReportANumberOutsideItsRangeAsMalformed() {
        assertMalformed(headers(KitRecords.FROM, "-1", KitRecords.GEN, "0"), "cairn.kit.from is -1, not within 0");
        assertMalformed(headers(KitRecords.FROM, "2147483648", KitRecords.GEN, "0"), "cairn.kit.from is 2147483648");
        assertMalformed(headers(KitRecords.FROM, "0", KitRecords.GEN, "-2"), "cairn.kit.gen is -2");
        assertMalformed(headers(KitRecords.FROM, "0", KitRecords.GEN, "0", KitRecords.BARRIER, "-1"),
                "cairn.kit.barrier is -1");
    }

    @Test
    void shouldReportAHeaderRepeatedWithDifferentValuesAsMalformed() {
        assertMalformed(headers(KitRecords.FROM, "0", KitRecords.GEN, "0", KitRecords.GEN, "1"),
                "cairn.kit.gen appears twice with different values");
        assertThat(KitRecords.read(headers(KitRecords.FROM, "0", KitRecords.FROM, "0", KitRecords.GEN, "0")))
                .isEqualTo(new KitRecord.Data(0, 0));
    }

    @Test
    void shouldReportABarrierThatIsAlsoAResumeRecordAsMalformed() {
        assertMalformed(headers(KitRecords.FROM, "0", KitRecords.GEN, "3", KitRecords.BARRIER, "4", KitRecords.RESUME,
                "3"), "both cairn.kit.barrier and cairn.kit.resume headers");
    }

    @Test
    void shouldReportAResumeRecordOfACheckpointBelowMinusOneAsMalformed() {
        assertMalformed(headers(KitRecords.FROM, "0", KitRecords.GEN, "3", KitRecords.RESUME, "-2"),
                "cairn.kit.resume is -2, not within -1 and");
    }

    @Test
    void shouldReportAnUnknownAlignmentAsMalformed() {
        assertMalformed(headers(KitRecords.FROM, "0", KitRecords.GEN, "0", KitRecords.BARRIER, "1", KitRecords.ALIGN,
                "unaligned"), "cairn.kit.align is 'unaligned', not at-least-once");
        assertMalformed(headers(KitRecords.FROM, "0", KitRecords.GEN, "0", KitRecords.ALIGN, "at-least-once"),
                "a data record with a cairn.kit.align header");
    }

    @Test
    void shouldReportABarrierOrResumeRecordWithAPayloadAsMalformed() {
        ProducerRecord<byte[], byte[]> barrier = KitRecords.barrier("out", 0, 1, 0, -1, Alignment.EXACTLY_ONCE);
        ProducerRecord<byte[], byte[]> resume = KitRecords.resume("out", 0, 1, 3, 0);

        assertThat(KitRecords.read(withPayload(barrier, null, VALUE)))
                .isEqualTo(new KitRecord.Malformed("a barrier carries a key or a value"));
        assertThat(KitRecords.read(withPayload(resume, KEY, null)))
                .isEqualTo(new KitRecord.Malformed("a resume record carries a key or a value"));
    }

    @Test
    void shouldQuoteAWrongHeaderShortAndPrintable() {
        KitRecord read = KitRecords.read(headers(KitRecords.FROM, "x\n".repeat(50), KitRecords.GEN, "0"));

        assertThat(read).isInstanceOfSatisfying(KitRecord.Malformed.class, malformed -> {
            assertThat(malformed.reason()).doesNotContain("\n").hasSizeLessThan(120);
            assertThat(malformed.reason()).contains("x?x?", "...");
        });
    }

    private static void assertMalformed(Headers headers, String reason) {
        assertThat(KitRecords.read(headers)).isInstanceOfSatisfying(KitRecord.Malformed.class,
                malformed -> assertThat(malformed.reason()).contains(reason));
    }

    private static Headers headers(String... keysAndValues) {
        RecordHeaders headers = new RecordHeaders();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            headers.add(keysAndValues[i], keysAndValues[i + 1].getBytes(StandardCharsets.UTF_8));
        }
        return headers;
    }

    private static ConsumerRecord<byte[], byte[]> consumed(ProducerRecord<byte[], byte[]> written) {
        return withPayload(written, written.key(), written.value());
    }

    private static ConsumerRecord<byte[], byte[]> withPayload(ProducerRecord<byte[], byte[]> written, byte[] key,
            byte[] value) {
        return new ConsumerRecord<>(written.topic(), written.partition(), 0L, 0L,
                TimestampType.CREATE_TIME, -1, -1, key, value, written.headers(),
                Optional.empty());
    }
}
