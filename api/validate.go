package api

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"
)

// checker collects field errors with their paths.
type checker struct {
	fields []FieldError
}

func (c *checker) add(path, format string, a ...any) {
	c.fields = append(c.fields, FieldError{Path: path, Message: fmt.Sprintf(format, a...)})
}

func (c *checker) err() error {
	if len(c.fields) == 0 {
		return nil
	}
	return &ValidationError{Fields: c.fields}
}

// uuid requires the canonical 36-character form (D14): uuid.Parse alone
// also takes braces, URNs and bare hex.
func (c *checker) uuid(path, v string) {
	if v == "" {
		c.add(path, "is required")
		return
	}
	if !isUUID(v) {
		c.add(path, "%q is not a UUID", truncate(v, 60))
	}
}

func isUUID(v string) bool {
	if len(v) != 36 {
		return false
	}
	_, err := uuid.Parse(v)
	return err == nil
}

func (c *checker) nonEmpty(path, v string) {
	if v == "" {
		c.add(path, "must not be empty")
	}
}

func (c *checker) address(path, v string) {
	if v == "" {
		c.add(path, "is required")
		return
	}
	if !isAddress(v) {
		c.add(path, "%q is not an address (0x and 40 hex digits)", truncate(v, 60))
	} else if want, bad := checksumFix(v); bad {
		c.add(path, "%s has a wrong EIP-55 checksum (mixed case): did you mean %s?", v, want)
	}
}

func (c *checker) positive(path string, d decimal.Decimal) {
	if !d.IsPositive() {
		c.add(path, "must be greater than 0")
	}
}

// amount holds an amount to CheckAmount's rule.
func (c *checker) amount(path string, n Number) {
	if err := CheckAmount(n.Decimal); err != nil {
		c.add(path, "%v", err)
	}
}

func (c *checker) fraction(path string, d decimal.Decimal) {
	if d.IsNegative() || d.GreaterThan(decimal.NewFromInt(1)) {
		c.add(path, "must be a fraction between 0 and 1")
	}
}

func isAddress(v string) bool {
	return len(v) == 42 && strings.HasPrefix(v, "0x") && isHex(v[2:])
}

func isHex(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}

// CheckUUID returns a validation error unless v is a canonical UUID; what
// names the value in the message ("allocation id").
func CheckUUID(what, v string) error {
	var c checker
	c.uuid(what, v)
	return c.err()
}

// Validate checks the body before it is sent.
func (r *InitializeRequest) Validate() error {
	var c checker
	c.uuid("contractId", r.ContractID)
	c.uuid("adminWalletId", r.AdminWalletID)
	return c.err()
}

// Validate checks the body before it is sent.
func (r *StartDistributionRequest) Validate() error {
	var c checker
	c.uuid("contractId", r.ContractID)
	c.uuid("tokenId", r.TokenID)
	if len(r.AllocationIDs) == 0 {
		c.add("allocationIds", "must hold at least 1 item")
	}
	for i, id := range r.AllocationIDs {
		c.uuid(fmt.Sprintf("allocationIds[%d]", i), id)
	}
	if r.AdminWalletID != nil {
		c.uuid("adminWalletId", *r.AdminWalletID)
	}
	if r.Memo != nil && *r.Memo == "" {
		c.add("memo", "must not be empty when given")
	}
	return c.err()
}

// Validate checks the body before it is sent.
func (r *FundDistributionRequest) Validate() error {
	var c checker
	c.uuid("tokenId", r.TokenID)
	if len(r.Data) == 0 {
		c.add("data", "must hold at least 1 item")
	}
	for i, item := range r.Data {
		c.uuid(fmt.Sprintf("data[%d].allocationId", i), item.AllocationID)
		c.amount(fmt.Sprintf("data[%d].amount", i), item.Amount)
	}
	return c.err()
}

// Validate checks the body before it is sent (D6).
func (r *ScheduleRequest) Validate() error {
	var c checker
	c.uuid("tokenId", r.TokenID)
	c.nonEmpty("name", r.Name)
	c.nonEmpty("description", r.Description)
	c.fraction("unlockAtStart", r.UnlockAtStart.Decimal)
	c.fraction("cliff.value", r.Cliff.Value.Decimal)
	if r.Cliff.Duration.IsNegative() {
		c.add("cliff.duration", "must not be negative")
	}
	if r.RoundingMode != "FLOOR" {
		c.add("roundingMode", "must be FLOOR")
	}
	if len(r.Pieces) == 0 {
		c.add("pieces", "must hold at least 1 item")
	}
	sum := r.UnlockAtStart.Add(r.Cliff.Value.Decimal)
	for i, p := range r.Pieces {
		path := fmt.Sprintf("pieces[%d]", i)
		c.nonEmpty(path+".name", p.Name)
		c.fraction(path+".portion", p.Portion.Decimal)
		sum = sum.Add(p.Portion.Decimal)
		switch {
		case p.OneOff == nil && p.Periodic == nil:
			c.add(path, "needs oneOffPieceConfiguration or periodicPieceConfiguration")
		case p.OneOff != nil && p.Periodic != nil:
			c.add(path, "has both oneOffPieceConfiguration and periodicPieceConfiguration; keep one")
		case p.OneOff != nil:
			dayOfMonth(&c, path+".oneOffPieceConfiguration.dayOfMonth", p.OneOff.DayOfMonth)
		default:
			dayOfMonth(&c, path+".periodicPieceConfiguration.dayOfMonth", p.Periodic.DayOfMonth)
			c.positive(path+".periodicPieceConfiguration.frequency.value", p.Periodic.Frequency.Value.Decimal)
		}
	}
	if len(r.Pieces) > 0 && sum.Sub(decimal.NewFromInt(1)).Abs().GreaterThan(decimal.New(1, -9)) {
		c.add("pieces", "unlockAtStart, cliff.value and the portions add up to %s, not 1", sum.String())
	}
	return c.err()
}

func dayOfMonth(c *checker, path string, d int) {
	if d < 1 || d > 28 {
		c.add(path, "must be a day from 1 to 28")
	}
}

// Validate checks the request before it is sent.
func (r StakesRequest) Validate() error {
	var c checker
	c.uuid("stakingPoolId", r.StakingPoolID)
	if r.WalletAddress != "" {
		c.address("walletAddress", r.WalletAddress)
	}
	return c.err()
}

// Creative limits (D12).
const MaxCreativeSize = 50 << 20

// CreativeContentTypes are the media types a portal takes (D12).
var CreativeContentTypes = []string{
	"image/png", "image/jpeg", "image/gif", "image/webp",
	"video/mp4", "video/webm",
	"audio/mpeg", "audio/wav", "audio/ogg",
}

var (
	fileNamePattern   = regexp.MustCompile(`^[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}$`)
	portalSlugPattern = regexp.MustCompile(`^[a-z0-9-]{1,64}$`)
)

// Validate checks the request before it is sent (D12).
func (r UploadURLRequest) Validate() error {
	var c checker
	if !fileNamePattern.MatchString(r.FileName) {
		c.add("fileName", "%q must be 1 to 128 letters, digits, '.', '_' or '-', not starting with '.'", truncate(r.FileName, 60))
	}
	if !isCreativeType(r.ContentType) {
		c.add("contentType", "%q is not allowed (allowed: %s)", truncate(r.ContentType, 60), strings.Join(CreativeContentTypes, ", "))
	}
	if !portalSlugPattern.MatchString(r.PortalSlug) {
		c.add("portalSlug", "%q must be 1 to 64 lowercase letters, digits or '-'", truncate(r.PortalSlug, 70))
	}
	return c.err()
}

func isCreativeType(ct string) bool {
	for _, t := range CreativeContentTypes {
		if ct == t {
			return true
		}
	}
	return false
}

// CheckCreativeSize refuses a file the portal would not take (D12).
func CheckCreativeSize(size int64) error {
	var c checker
	switch {
	case size <= 0:
		c.add("file", "is empty")
	case size > MaxCreativeSize:
		c.add("file", "is %d bytes, more than the %d MiB a creative may be", size, MaxCreativeSize>>20)
	}
	return c.err()
}

// Validate checks the request before it is sent.
func (r CreateCreativeRequest) Validate() error {
	var c checker
	c.nonEmpty("storageKey", r.StorageKey)
	c.nonEmpty("name", r.Name)
	return c.err()
}

// Validate checks the claim of allocationID before it is sent (D7).
func (r ClaimRequest) Validate(allocationID string) error {
	var c checker
	c.uuid("id", allocationID)
	c.address("sender", r.Sender)
	if r.UserCountryCode != "" && !countries[r.UserCountryCode] {
		c.add("userCountryCode", "%q is not an ISO 3166-1 alpha-2 code, e.g. DE", truncate(r.UserCountryCode, 20))
	}
	if r.Amount != nil {
		c.amount("amount", *r.Amount)
	}
	return c.err()
}

// validateStakeParameters checks a stake parameters query (D11).
func validateStakeParameters(poolID string, amount Number) error {
	var c checker
	c.uuid("stakingPoolId", poolID)
	c.amount("amount", amount)
	return c.err()
}
