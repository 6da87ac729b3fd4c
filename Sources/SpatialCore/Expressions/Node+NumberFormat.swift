import Foundation

// `number-format` (ExpressionParser+BeyondSpec.swift): the number as JavaScript's
// `Intl.NumberFormat` writes it, through Foundation's ICU-backed format styles.

extension NumberFormatOptions {
    /// The formatted number, or `nil` for an evaluation error (a non-number input, a non-string
    /// locale or currency, a currency code that is not three letters, fraction digits outside
    /// 0 … 20 or a minimum above the maximum, as `Intl.NumberFormat` throws for them).
    /// O(digits).
    func evaluate<C: ExpressionContext>(_ c: C) -> JSONValue? {
        guard let x = input.number(c) else { return nil }
        func string(_ node: Node?) -> String?? {
            guard let node else { return .some(nil) }
            guard case .string(let s)? = node.evaluate(c) else { return nil }
            return .some(s)
        }
        func digits(_ node: Node?) -> Int?? {
            guard let node else { return .some(nil) }
            guard let d = node.number(c), d >= 0, d <= 20 else { return nil }
            return .some(Int(d.rounded(.down)))
        }
        guard let localeName = string(locale), let currencyCode = string(currency),
            let minimum = digits(minFractionDigits), let maximum = digits(maxFractionDigits)
        else { return nil }
        // A currency code is three letters (ISO 4217), as Intl requires.
        if let code = currencyCode, !(code.utf8.count == 3 && code.utf8.allSatisfy { ($0 | 0x20) >= 0x61 && ($0 | 0x20) <= 0x7A }) {
            return nil
        }
        let locale = Locale(identifier: localeName ?? "en-US")
        // Intl's defaults: a currency's own digits, else 0 … max(min, 3).
        let own = currencyCode.map(Self.currencyDigits) ?? 0
        let lower = minimum ?? Swift.min(own, maximum ?? own)
        let upper = maximum ?? Swift.max(lower, currencyCode == nil ? 3 : own)
        guard lower <= upper else { return nil }
        let text: String
        if let currencyCode {
            text = x.formatted(.currency(code: currencyCode).locale(locale)
                .precision(.fractionLength(lower ... upper)).rounded(rule: .toNearestOrAwayFromZero))
        } else {
            text = x.formatted(.number.locale(locale)
                .precision(.fractionLength(lower ... upper)).rounded(rule: .toNearestOrAwayFromZero))
        }
        return .string(text)
    }

    /// The fraction digits ISO 4217 gives a currency (2 for those not listed). O(1).
    static func currencyDigits(_ code: String) -> Int {
        switch code.uppercased() {
        case "BIF", "CLP", "DJF", "GNF", "ISK", "JPY", "KMF", "KRW", "PYG", "RWF", "UGX", "UYI", "VND", "VUV",
            "XAF", "XOF", "XPF":
            return 0
        case "BHD", "IQD", "JOD", "KWD", "LYD", "OMR", "TND":
            return 3
        default:
            return 2
        }
    }
}
