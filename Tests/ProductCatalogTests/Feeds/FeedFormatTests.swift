import Testing
@testable import ProductCatalog

/// Small hand-made files, one per rule of the feed formats.
@Suite struct FeedFormatTests {
    func imported(_ csv: String, format: FeedFormat? = nil) throws -> (ImportSummary, [String: Product], CatalogFixture) {
        var fixture = try CatalogFixture()
        fixture.options.reading.format = format
        let summary = try fixture.importCSV(csv)
        let products = Dictionary(try fixture.allProducts().map { ($0.productId, $0) }, uniquingKeysWith: { first, _ in first })
        return (summary, products, fixture)
    }

    @Test(arguments: [
        ("id\ttitle\tprice\timage_link\tavailability", FeedFormat.google),
        ("id,title,price,link,video[0].url", .meta),
        ("Handle,Title,Body (HTML),Option1 Name,Option1 Value,Variant SKU,Variant Price", .shopify),
        ("Title,URL handle,Description,Option1 name,Option1 value,SKU,Price,Compare-at price", .shopify),
        ("ID,Type,SKU,Name,Regular price,Sale price,Parent", .woocommerce),
        ("ID,Typ,Artikelnummer,Name,Regulärer Preis,Angebotspreis,Übergeordnetes Produkt", .woocommerce),
        ("sku,store_view_code,attribute_set_code,product_type,name,price", .magento),
        ("Product ID [Non Editable],Variant ID [Non Editable],Title,SKU,Price,Sale Price,On Sale,Stock", .squarespace),
        ("handleId,fieldType,name,price,surcharge", .wix),
        ("TITLE,DESCRIPTION,PRICE,CURRENCY_CODE,QUANTITY,IMAGE1", .etsy),
        ("ID;Active (0/1);Name *;Categories (x,y,z...);Price tax excluded;Price tax included;Reference #", .prestashop),
        ("sku,family,categories,enabled,name-en_US,price-EUR", .akeneo),
        ("productId,title,listPrice,salesPrice,color,size", .generic),
    ])
    func theFormatIsRecognisedFromTheHeader(header: String, format: FeedFormat) {
        let delimiter: Character = header.contains("\t") ? "\t" : header.contains(";") ? ";" : ","
        #expect(FeedFormat.detect(header: header.split(separator: delimiter).map(String.init)) == format)
    }

    @Test func aShopifyFamilyBecomesItsVariantsFilledDownWithImagesFolded() throws {
        let (summary, products, _) = try imported("""
            Handle,Title,Body (HTML),Vendor,Type,Tags,Option1 Name,Option1 Value,Option2 Name,Option2 Value,Variant SKU,Variant Price,Variant Compare At Price,Variant Inventory Qty,Image Src
            tee,Classic Tee,<p>Soft</p>,Acme,Shirts,cotton,Color,Red,Size,S,,20.00,25.00,3,https://img/1.jpg
            tee,,,,,,,Red,,M,,20.00,,5,https://img/2.jpg
            tee,,,,,,,,,,,,,,https://img/3.jpg
            mug,Mug,,Acme,Kitchen,,Title,Default Title,,,MUG-1,9.50,,,

            """)
        #expect(summary.format == .shopify)
        #expect(summary.rowsRead == 4 && summary.rowsInserted == 3 && summary.rowsFolded == 1)
        let small = try #require(products["tee/Red/S"]), medium = try #require(products["tee/Red/M"])
        #expect(small.listPrice == Price("25.00") && small.salesPrice == Price("20.00"))
        #expect(medium.listPrice == Price("20.00") && medium.salesPrice == nil)
        for variant in [small, medium] {
            #expect(variant.title == "Classic Tee" && variant.description == "<p>Soft</p>" && variant.brand == "Acme")
            #expect(variant.productType == "Shirts" && variant.groupId == "tee" && variant.color == "Red")
            #expect(variant.extras.first { $0.name == "images" }?.value == "https://img/1.jpg https://img/2.jpg https://img/3.jpg")
            #expect(variant.extras.first { $0.name == "Tags" }?.value == "cotton")
        }
        #expect(small.size == "S" && small.quantity == 3 && medium.size == "M" && medium.quantity == 5)
        #expect(products["mug"]?.listPrice == Price("9.50"))
    }

    @Test func pricesAreReadAsShopsWriteThem() throws {
        let (summary, products, fixture) = try imported("""
            productId,listPrice
            A,12.00 USD
            B,USD 12.00
            C,12000 JPY
            D,€4\u{A0}
            E,"1.234,50 €"
            F,7.5
            G,"1,234"
            H,1.235 KWD
            I,1.235 USD
            J,12.345

            """)
        #expect(products["A"]?.listPrice == Price("12.00") && products["A"]?.currency == "USD")
        #expect(products["B"]?.listPrice == Price("12.00") && products["B"]?.currency == "USD")
        #expect(products["C"]?.listPrice == Price(cents: 1_200_000) && products["C"]?.currency == "JPY")
        #expect(products["D"]?.listPrice == Price("4") && products["D"]?.currency == "EUR")
        #expect(products["E"]?.listPrice == Price("1234.50") && products["E"]?.currency == "EUR")
        #expect(products["F"]?.listPrice == Price("7.50") && products["F"]?.currency == nil)
        // A settled the file on a decimal point (E shows both marks, so it reads either way): 1,234 is a thousand and more.
        #expect(products["G"]?.listPrice == Price("1234"))
        #expect(products["H"]?.listPrice == Price(thousandths: 1_235) && products["H"]?.currency == "KWD")
        #expect(summary.rowsRejected == 2)
        let reasons = Dictionary(uniqueKeysWithValues: try fixture.rejects().dropFirst().map { ($0[2], $0[1]) })
        #expect(reasons["I"]?.contains("listPrice \"1.235\" has 3 decimals") == true && reasons["I"]?.contains("USD has 2") == true)
        #expect(reasons["J"]?.contains("give its currency") == true)
    }

    @Test func aCurrencyColumnDecidesWhetherAThirdDecimalIsKept() throws {
        let (summary, products, fixture) = try imported("""
            productId,listPrice,salesPrice,currency
            A,12.345,12.005,KWD
            B,12.345,,usd
            C,12.340,12.3,USD
            D,7.125 BHD,,

            """)
        #expect(products["A"]?.listPrice == Price(thousandths: 12_345) && products["A"]?.salesPrice == Price(thousandths: 12_005))
        #expect(products["C"]?.listPrice == Price("12.34") && products["C"]?.salesPrice == Price("12.30"))
        #expect(products["D"]?.listPrice == Price(thousandths: 7_125) && products["D"]?.currency == "BHD")
        #expect(summary.rowsInserted == 3 && summary.rowsRejected == 1)
        #expect(try fixture.rejects()[1][2] == "B")
        let json = try #require(products["A"]).jsonValue.serialized
        #expect(json.contains(#""listPrice":"12.345","salesPrice":"12.005""#))
        let plain = try #require(products["C"]).jsonValue.serialized
        #expect(plain.contains(#""listPrice":"12.34","salesPrice":"12.30""#))
    }

    @Test func aDecimalCommaFileAndAnAmbiguousPrice() throws {
        let (_, commas, _) = try imported("productId;listPrice;salesPrice\nA;4,99;3,5\nB;1.234,00;\n")
        #expect(commas["A"]?.listPrice == Price("4.99") && commas["A"]?.salesPrice == Price("3.50"))
        #expect(commas["B"]?.listPrice == Price("1234"))
        let (summary, _, fixture) = try imported("productId,listPrice\nA,\"1,234\"\nB,2\n")
        #expect(summary.rowsRejected == 1)
        #expect(try fixture.rejects()[1][1].contains("could mean a decimal comma or a thousands separator"))
    }

    @Test func aRowMissingTrailingFieldsIsPaddedAndOneWithTooManyIsRejected() throws {
        let (summary, products, _) = try imported("productId,title,color,size\nA,One,red\nB,Two\nC,Three,blue,M,extra\n")
        #expect(summary.rowsPadded == 2 && summary.rowsRejected == 1)
        #expect(products["A"]?.color == "red" && products["A"]?.size == "")
        #expect(products["B"]?.title == "Two")
    }

    @Test func headersAreCleanedOfMarksAndByteOrderMarks() throws {
        let (summary, products, _) = try imported("\u{FEFF}productId, \u{FEFF}title\t,listPrice *\nA,One,2\n")
        #expect(summary.rowsInserted == 1)
        #expect(products["A"]?.title == "One" && products["A"]?.listPrice == Price("2"))
    }

    @Test func genericTurnsRecognitionOff() throws {
        let csv = "id,title,price,link\nA,One,2.00 USD,https://x\n"
        let (detected, _, _) = try imported(csv)
        #expect(detected.format == .google)
        let (generic, products, _) = try imported(csv, format: .generic)
        #expect(generic.format == .generic)
        #expect(products["A"]?.extras.contains { $0.name == "link" } == true)
    }

    @Test func germanWooCommerceVariationsInheritFromTheirParent() throws {
        let (summary, products, _) = try imported("""
            ID,Typ,Artikelnummer,Name,Beschreibung,Regulärer Preis,Angebotspreis,Kategorien,Übergeordnetes Produkt,Lagerbestand,Eigenschaft 1 Name,Eigenschaft 1 Wert(e)
            10,variable,HOODIE,Kapuzenpullover,Warm,,,Kleidung,,,Farbe,"Rot, Blau"
            11,variation,HOODIE-ROT,,,"42,00","39,99",,id:10,7,Farbe,Rot
            12,variation,,,,"42,00",,,HOODIE,,Farbe,Blau
            13,simple,,Mütze,,"9,5",,Kleidung,,,,

            """)
        #expect(summary.format == .woocommerce && summary.rowsFolded == 1 && summary.rowsInserted == 3)
        let red = try #require(products["HOODIE-ROT"])
        #expect(red.title == "Kapuzenpullover" && red.description == "Warm" && red.productType == "Kleidung")
        #expect(red.listPrice == Price("42") && red.salesPrice == Price("39.99") && red.quantity == 7 && red.color == "Rot")
        #expect(red.groupId == "HOODIE")
        #expect(products["id:12"]?.groupId == "HOODIE" && products["id:12"]?.color == "Blau")
        #expect(products["id:13"]?.listPrice == Price("9.50") && products["id:13"]?.groupId == "")
    }

    @Test func squarespaceVariantsAreFilledDownAndSalesNeedOnSale() throws {
        let (_, products, _) = try imported("""
            Product ID [Non Editable],Variant ID [Non Editable],Title,Description,SKU,Option Name 1,Option Value 1,Price,Sale Price,On Sale,Stock,Categories,Hosted Image URLs
            P1,V1,Linen Shirt,Cool,SQ-1,Size,S,50.00,40.00,Yes,Unlimited,"Shirts, Summer",https://img/a.jpg https://img/b.jpg
            ,V2,,,SQ-2,,M,50.00,40.00,No,4,,

            """)
        let first = try #require(products["V1"]), second = try #require(products["V2"])
        #expect(first.salesPrice == Price("40") && first.quantity == nil && first.imageURL == "https://img/a.jpg")
        #expect(second.title == "Linen Shirt" && second.description == "Cool" && second.salesPrice == nil && second.quantity == 4)
        #expect(second.groupId == "P1" && second.size == "M" && second.productType == "Shirts" && second.imageURL == "https://img/a.jpg")
    }

    @Test func prestaShopAndAkeneoFilesMapTheirKeyTitleAndPrices() throws {
        let (presta, prestaProducts, _) = try imported("""
            ID;Active (0/1);Name *;Categories (x,y,z...);Price tax excluded;Price tax included;Discount percent;Reference #;Quantity
            1;1;Mug;Kitchen,Gifts;10;12,00;25;MUG-1;3
            2;1;Plate;Kitchen;5;6;;;0

            """)
        #expect(presta.format == .prestashop)
        #expect(prestaProducts["MUG-1"]?.title == "Mug" && prestaProducts["MUG-1"]?.listPrice == Price("12") && prestaProducts["MUG-1"]?.salesPrice == Price("9"))
        #expect(prestaProducts["2"]?.title == "Plate" && prestaProducts["2"]?.productType == "Kitchen")
        let (akeneo, akeneoProducts, _) = try imported("""
            sku,family,categories,enabled,parent,name-en_US,description-en_US-ecommerce,price-EUR,color
            AK-1,shirts,summer,1,shirt-model,Polo,Nice,19.90,blue

            """)
        #expect(akeneo.format == .akeneo)
        let polo = try #require(akeneoProducts["AK-1"])
        #expect(polo.title == "Polo" && polo.description == "Nice" && polo.listPrice == Price("19.90") && polo.currency == "EUR" && polo.groupId == "shirt-model")
    }
}
