package dev.cairn.kit.wire;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.apache.kafka.common.header.internals.RecordHeaders;

/** Reading never throws, whatever the kit headers hold, and a record it calls data or control is well-formed. */
class KitRecordsPropertyTest {

    @Property(tries = 500)
    void shouldReadAnyHeadersWithoutThrowing(@ForAll("kitHeaders") List<List<Object>> headers) {
        RecordHeaders recordHeaders = new RecordHeaders();
        headers.forEach(header -> recordHeaders.add((String) header.get(0), (byte[]) header.get(1)));

        KitRecord read = KitRecords.read(recordHeaders);

        assertThat(read).isNotNull();
        if (read instanceof KitRecord.Data data) {
            assertThat(data.from()).isNotNegative();
            assertThat(data.generation()).isGreaterThanOrEqualTo(-1);
        } else if (read instanceof KitRecord.Malformed malformed) {
            assertThat(malformed.reason()).isNotBlank();
        }
    }

    @Provide
    Arbitrary<List<List<Object>>> kitHeaders() {
        Arbitrary<String> key = Arbitraries.of(KitRecords.FROM, KitRecords.GEN, KitRecords.BARRIER, KitRecords.RESUME,
                KitRecords.ALIGN, "other");
        Arbitrary<byte[]> value = Arbitraries.oneOf(
                Arbitraries.longs().map(number -> Long.toString(number).getBytes()),
                Arbitraries.integers().between(-3, 5).map(number -> Integer.toString(number).getBytes()),
                Arbitraries.of("at-least-once", "", "-", "1e3", "０").map(String::getBytes),
                Arbitraries.bytes().array(byte[].class).ofMaxSize(30),
                Arbitraries.just((byte[]) null));
        return key.flatMap(k -> value.map(v -> List.<Object>of(k, v == null ? new byte[0] : v)))
                .list().ofMaxSize(8);
    }
}
