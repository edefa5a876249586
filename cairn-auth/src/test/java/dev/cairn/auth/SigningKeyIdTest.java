package dev.cairn.auth;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;

/** A key's public id: stable, short, different for every key, revealing nothing, and sent beside each signature. */
class SigningKeyIdTest {

    private final SigningKey master = SigningKey.generate();

    @Test
    void shouldNameAKeyBySixteenHexDigitsThatAreTheSameForTheSameKey() {
        assertThat(master.id()).matches("[0-9a-f]{16}")
                .isEqualTo(SigningKey.fromBase64(master.toBase64()).id());
    }

    @Test
    void shouldGiveEveryKeyAndEveryDerivedKeyAnIdOfItsOwn() {
        assertThat(List.of(master.id(), master.jobKey("orders").id(), master.jobKey("payments").id(),
                master.requestsKey().id(), SigningKey.generate().id())).doesNotHaveDuplicates();
    }

    @Test
    void shouldComputeTheIdAsDocumentedWithoutRevealingTheKey() throws Exception {
        byte[] secret = Base64.getDecoder().decode(master.toBase64());
        MessageDigest sha256 = MessageDigest.getInstance("SHA-256");
        sha256.update("cairn.key-id.v1:".getBytes(StandardCharsets.US_ASCII));
        String expected = HexFormat.of().formatHex(sha256.digest(secret), 0, 8);

        assertThat(master.id()).isEqualTo(expected)
                .isNotEqualTo(HexFormat.of().formatHex(secret, 0, 8));
        assertThat(master.toBase64()).doesNotContain(master.id());
        assertThat(master.toString()).contains(master.id()).doesNotContain(master.toBase64());
    }

    @Test
    void shouldSendTheSigningKeysIdBesideTheSignatureAndReplaceAnEarlierOne() {
        RecordHeaders headers = new RecordHeaders();
        byte[] value = "value".getBytes(StandardCharsets.UTF_8);
        SigningKey jobKey = master.jobKey("orders");

        RecordSignatures.sign(headers, master.requestsKey(), value);
        RecordSignatures.sign(headers, jobKey, value);

        assertThat(RecordSignatures.keyId(headers)).isEqualTo(jobKey.id());
        assertThat(RecordSignatures.signature(headers)).isEqualTo(jobKey.mac(value));
        assertThat(headers.headers(RecordSignatures.KEY_ID_HEADER)).hasSize(1);
        assertThat(headers.headers(RecordSignatures.HEADER)).hasSize(1);
        assertThat(RecordSignatures.keyId(new RecordHeaders())).isNull();
    }
}
