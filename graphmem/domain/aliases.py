"""Names Koreans write in Hangul, mapped to the names a graph built from English holds.

Countries, major cities, languages, religions, sports and continents. Users extend it:
``MemoryConfig(aliases={**KOREAN_ALIASES, "삼성": "Samsung"})``.
"""

from __future__ import annotations

__all__ = ["KOREAN_ALIASES"]

_PAIRS = """
미국=United States of America;미합중국=United States of America;영국=United Kingdom;
프랑스=France;독일=Germany;이탈리아=Italy;스페인=Spain;포르투갈=Portugal;네덜란드=Netherlands;
벨기에=Belgium;스위스=Switzerland;오스트리아=Austria;스웨덴=Sweden;노르웨이=Norway;
덴마크=Denmark;핀란드=Finland;아이슬란드=Iceland;아일랜드=Ireland;폴란드=Poland;체코=Czech Republic;
헝가리=Hungary;그리스=Greece;터키=Turkey;튀르키예=Turkey;러시아=Russia;소련=Soviet Union;
우크라이나=Ukraine;캐나다=Canada;멕시코=Mexico;브라질=Brazil;아르헨티나=Argentina;칠레=Chile;
페루=Peru;콜롬비아=Colombia;베네수엘라=Venezuela;쿠바=Cuba;일본=Japan;중국=China;
중화인민공화국=People's Republic of China;대만=Taiwan;한국=South Korea;대한민국=South Korea;
북한=North Korea;인도=India;파키스탄=Pakistan;방글라데시=Bangladesh;인도네시아=Indonesia;
필리핀=Philippines;베트남=Vietnam;태국=Thailand;말레이시아=Malaysia;싱가포르=Singapore;
호주=Australia;오스트레일리아=Australia;뉴질랜드=New Zealand;이집트=Egypt;
남아프리카 공화국=South Africa;
남아공=South Africa;나이지리아=Nigeria;케냐=Kenya;에티오피아=Ethiopia;모로코=Morocco;
알제리=Algeria;튀니지=Tunisia;이스라엘=Israel;이란=Iran;이라크=Iraq;사우디아라비아=Saudi Arabia;
시리아=Syria;레바논=Lebanon;요르단=Jordan;아프가니스탄=Afghanistan;스코틀랜드=Scotland;
잉글랜드=England;웨일스=Wales;로마 제국=Roman Empire;오스만 제국=Ottoman Empire;
서울=Seoul;부산=Busan;도쿄=Tokyo;오사카=Osaka;교토=Kyoto;베이징=Beijing;상하이=Shanghai;
홍콩=Hong Kong;뉴욕=New York City;로스앤젤레스=Los Angeles;시카고=Chicago;보스턴=Boston;
워싱턴=Washington, D.C.;샌프란시스코=San Francisco;런던=London;파리=Paris;베를린=Berlin;
뮌헨=Munich;로마=Rome;밀라노=Milan;마드리드=Madrid;바르셀로나=Barcelona;리스본=Lisbon;
암스테르담=Amsterdam;브뤼셀=Brussels;빈=Vienna;프라하=Prague;모스크바=Moscow;
상트페테르부르크=Saint Petersburg;이스탄불=Istanbul;아테네=Athens;카이로=Cairo;
뭄바이=Mumbai;델리=Delhi;시드니=Sydney;멜버른=Melbourne;토론토=Toronto;몬트리올=Montreal;
밴쿠버=Vancouver;에든버러=Edinburgh;더블린=Dublin;스톡홀름=Stockholm;코펜하겐=Copenhagen;
오슬로=Oslo;헬싱키=Helsinki;바르샤바=Warsaw;부다페스트=Budapest;
영어=English;프랑스어=French;독일어=German;이탈리아어=Italian;스페인어=Spanish;
포르투갈어=Portuguese;러시아어=Russian;중국어=Chinese;일본어=Japanese;한국어=Korean;
아랍어=Arabic;히브리어=Hebrew;라틴어=Latin;그리스어=Greek;고대 그리스어=Ancient Greek;
네덜란드어=Dutch;스웨덴어=Swedish;노르웨이어=Norwegian;덴마크어=Danish;핀란드어=Finnish;
폴란드어=Polish;체코어=Czech;헝가리어=Hungarian;터키어=Turkish;페르시아어=Persian;
힌디어=Hindi;벵골어=Bengali;우르두어=Urdu;인도네시아어=Indonesian;베트남어=Vietnamese;
태국어=Thai;타갈로그어=Tagalog;스와힐리어=Swahili;에스페란토=Esperanto;
기독교=Christianity;그리스도교=Christianity;천주교=Catholic Church;가톨릭=Catholic Church;
가톨릭교회=Catholic Church;개신교=Protestantism;정교회=Eastern Orthodox Church;
이슬람교=Islam;이슬람=Islam;불교=Buddhism;힌두교=Hinduism;유대교=Judaism;시크교=Sikhism;
도교=Taoism;유교=Confucianism;신도=Shinto;무신론=atheism;수니파=Sunni Islam;시아파=Shia Islam;
루터교=Lutheranism;성공회=Anglicanism;
축구=association football;미식축구=American football;야구=baseball;농구=basketball;
배구=volleyball;아이스하키=ice hockey;필드하키=field hockey;하키=ice hockey;럭비=rugby union;
럭비 유니언=rugby union;럭비 리그=rugby league;크리켓=cricket;테니스=tennis;골프=golf;
권투=boxing;복싱=boxing;레슬링=wrestling;유도=judo;태권도=taekwondo;수영=swimming;
사이클=cycling;육상=athletics;스키=skiing;체스=chess;핸드볼=handball;무에타이=Muay Thai;
페사팔로=pesäpallo;
아시아=Asia;유럽=Europe;아프리카=Africa;북아메리카=North America;북미=North America;
남아메리카=South America;남미=South America;오세아니아=Oceania;남극=Antarctica;
남극 대륙=Antarctica
"""

KOREAN_ALIASES: dict[str, str] = dict(
    pair.strip().split("=", 1) for pair in _PAIRS.replace("\n", "").split(";") if pair.strip()
)
