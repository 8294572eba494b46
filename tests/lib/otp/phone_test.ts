import assert from "node:assert/strict";
import { assertValidPhone, e164, phoneReceiverId } from "../../../lib/otp/phone.ts";
import { DomainError } from "../../../lib/errors.ts";

Deno.test("one receiver however the number is written", () => {
  const id = phoneReceiverId("82", "01012345678");
  assert.equal(id, "82:1012345678");
  assert.equal(phoneReceiverId("+82", "010-1234-5678"), id);
  assert.equal(phoneReceiverId("82", "+82 10 1234 5678"), id);
  assert.equal(phoneReceiverId("82", "(010) 1234.5678"), id);
  assert.notEqual(phoneReceiverId("1", "01012345678"), id);
});

Deno.test("E.164 for providers", () => {
  assert.equal(e164("82", "010-1234-5678"), "+821012345678");
  assert.equal(e164("1", "202 555 0123"), "+12025550123");
});

Deno.test("lookup accepts valid numbers for the country and refuses others", () => {
  // A valid number's E.164 form comes back, the same as e164 gives.
  for (
    const [cc, to] of [["82", "010-1234-5678"], ["1", "2025550123"], ["81", "090-1234-5678"], [
      "+82",
      "+82 10 1234 5678",
    ]]
  ) {
    assert.equal(assertValidPhone(cc, to), e164(cc, to), `${cc} ${to}`);
  }
  assert.equal(assertValidPhone("82", "010-1234-5678"), "+821012345678");
  for (
    const [cc, to] of [["82", "0101234"], ["82", "+12025550123"], ["1", "0000000000"], [
      "82",
      "999",
    ]]
  ) {
    assert.throws(() => assertValidPhone(cc, to), (err: unknown) => {
      assert.ok(err instanceof DomainError);
      assert.equal(err.code, "INVALID_PHONE_NUMBER");
      return true;
    }, `${cc} ${to}`);
  }
});
