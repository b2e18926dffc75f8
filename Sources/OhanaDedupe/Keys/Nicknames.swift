/// Given-name equivalences: each line is one group, canonical name first,
/// then nicknames and spelling variants that mean the same given name.
///
/// Written for this project from common knowledge of naming customs (no
/// list was copied). Names are folded: lower-case ASCII as ``NameFolder``
/// produces them, so Cyrillic, Greek and other scripts appear in the form
/// ICU's `Any-Latin; Latin-ASCII` gives (`Саша` → `sasa`, `Дмитрий` →
/// `dmitrij`) next to the usual English spelling.
///
/// A name listed in two groups belongs to the first (`alex` is
/// `alexander`; `chris` is `christopher`); the table trades a little
/// precision for recall, and the scorer still needs other evidence.
enum NicknameTable {
  static let groups: String = """
    william bill billy will willy willie liam wim
    robert bob bobby rob robbie bert
    richard dick rick ricky rich richie
    james jim jimmy jamie
    john jack johnny jon
    jonathan jonny
    joseph joe joey jo
    michael mike mikey mick mickey
    thomas tom tommy
    charles charlie chuck chas
    christopher chris kit topher
    daniel dan danny
    david dave davey
    edward ed eddie ted teddy ned
    anthony tony ant
    andrew andy drew
    matthew matt matty
    nicholas nick nicky nico
    benjamin ben benny benji
    samuel sam sammy
    alexander alex alec sandy xander aleksandr aleksander alexandr aleksandar alessandro alejandro alexandre sasa sasha sura shura alik
    alexandra alexa lexi sandra sasha alessandra alejandra aleksandra
    stephen steve steven stevie stefan stephan
    joshua josh
    jacob jake
    zachary zach zack
    nathan nate nathaniel
    timothy tim timmy
    patrick pat paddy
    peter pete piet pieter pierre pedro pietro piotr pyotr petr
    gregory greg
    kenneth ken kenny
    ronald ron ronnie
    donald don donnie
    douglas doug
    gerald gerry jerry
    lawrence larry laurence
    leonard leo len lenny
    raymond ray
    frederick fred freddie freddy fritz
    francis frank frankie
    franklin
    philip phil pip
    harold harry hal
    henry hank harry hendrik henk heinrich heinz enrique enrico henri
    walter walt wally
    eugene gene
    vincent vince vinny
    arthur art artie
    albert al bert bertie
    alfred alf alfie fred
    gabriel gabe gabi
    isaac ike
    jeffrey jeff geoffrey geoff
    bradley brad
    theodore theo teddy
    oliver ollie
    maximilian max maxim maks
    elizabeth liz lizzie beth betty bess betsy eliza elisabeth elise lisa elsa ilse isabel isabelle isabella bella izzy
    katherine kate katie kathy kathryn catherine cathy kat kitty katharina katarina kathrin katrin caterina catalina katarzyna kasia katja katia katya ekaterina jekaterina katerina katerina kata
    margaret maggie meg peggy marge margie greta gretchen margarita margherita malgorzata gosia
    jennifer jen jenny
    jessica jess jessie
    patricia pat patty trish tricia
    susan sue susie suzanne
    deborah deb debbie debra
    rebecca becky becca
    victoria vicky tori vic
    charlotte lottie charlie
    abigail abby gail
    amanda mandy
    barbara barb babs basia
    christine chris chrissy christina kristina kristin kirsten christiane
    dorothy dot dottie dorothea
    eleanor ellie nora elle
    frances fran frannie francesca francoise
    jacqueline jackie
    judith judy
    kimberly kim
    pamela pam
    samantha sam sammie
    sarah sara sally sadie
    stephanie steph
    teresa terry tessa theresa tereza
    valerie val
    virginia ginny ginger
    melissa mel missy
    michelle shelly michele
    nancy nan
    cynthia cindy
    angela angie
    matilda tilly tilda
    josephine josie
    mary marie maria mariya masa masha molly polly mia marija maryse
    ann anna anne annie anya ana anja ania anka anneke hannah hanna
    helen helena elena lena jelena ellen ella yelena olena
    natalie natalia natalya natala natasha natasa nathalie talia
    olga olya ola
    tatiana tatyana tatjana tanya tana tata
    svetlana sveta
    irina ira
    ekaterina
    galina galya
    ludmila lyuda luda
    lyubov luba lubov
    nadezhda nadezda nadya nada
    valentina valya vala
    evgenia zhenya zena
    yulia julia julija julie jule juliana julianne
    sergey sergei sergej serezha serioza sereza seryozha serge sergio
    dmitry dmitri dmitrij dima dimitri dmytro
    mikhail mihail misha misa michail mikhael michal michel miguel michele
    aleksey alexey aleksej alexei alesa lesa lesha lyosha olexiy oleksii
    andrey andrei andrej andriy andrij andryusha andrusa andrea andreas andre andres andrzej
    nikolay nikolai nikolaj kolya kola mykola nicolas nikolaus niklas klaus nicola
    vladimir volodya voloda vova vlad wladimir
    ivan vanya vana ivo
    pavel pasha pasa paul paolo pablo pavlo pawel
    yuri yury jurij urij yuriy iurii
    evgeny evgenij evgenii yevgeny zhenya zena eugen
    konstantin kostya kosta konstantinos kostas constantine
    viktor vitya vita victor
    oleksandr sasko
    georgios giorgos yiorgos george georg jorge jurgen giorgio georgi giorgi gogi
    konstantinos
    ioannis giannis yannis jannis yiannis
    nikolaos nikos
    dimitrios dimitris mitsos
    panagiotis panos
    vasileios vasilis vasili vasily vasilij vasya basil
    athanasios thanos thanasis
    christos christakis
    evangelos vangelis
    eleni elene lenio
    aikaterini katerina
    johannes hans jan johann jens jannes hannes
    josef sepp joseph jose pepe jozef jozsef giuseppe beppe peppe josep ze
    franz francois francesco francisco paco pancho frantisek franciszek chico
    wolfgang wolf
    friedrich fritz
    ludwig lutz louis luis luigi ludovic
    cornelis kees cor
    jacobus koos jaap jakob jakub kuba jacques giacomo diego santiago
    gerardus gerard gert gerrit
    wilhelmus willem wim wilhelm guillaume guillermo guglielmo memo
    adrianus adrian ad
    tomasz tomek tomas tommaso
    bartlomiej bartek bartholomew bart
    wojciech wojtek
    malgorzata
    agnieszka aga
    krzysztof krzys
    stanislaw stas stan
    ignacio nacho
    dolores lola
    manuel manolo manu
    rafael rafa
    fernando nando
    concepcion concha conchita
    guadalupe lupe
    jesus chucho chuy
    beatriz bia bea beatrice
    roberto beto
    alberto tito
    eduardo edu
    antonio toni tonio
    salvatore toto
    vittorio vito
    giovanni gianni
    carlos carl karl carlo karel
    mehmet memet
    mustafa musti
    muhammad mohammed mohammad mohamed muhammed mehmed
    ahmed ahmad
    abdullah abdallah
    yusuf youssef yousef
    ibrahim ebrahim
    hussein husein hussain
    vikram vicky
    suresh suri
    karthik karthi
    aditya adi
    rajesh raj
    venkatesh venky
    mohan
    """

  /// Folded name → folded canonical name.
  static let canonical: [String: String] = {
    var map: [String: String] = [:]
    for line in groups.split(separator: "\n") {
      let names = line.split(separator: " ")
      guard let head = names.first else { continue }
      // A head already listed elsewhere keeps that group's canonical name.
      let canonical = map[String(head)] ?? String(head)
      for n in names where map[String(n)] == nil { map[String(n)] = canonical }
    }
    return map
  }()
}
